package dev.opcua.stack.client.connection;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.services.RequestObserver;
import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaResponseMessage;
import dev.opcua.stack.core.types.structured.RequestHeader;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's {@link ServiceInvoker}: the door every request of the services and the subscriptions
 * goes through. While a session is active ({@link #open}) a request is built around a header of that
 * session (Part 4, 7.32) and sent at once; while the client connects or reconnects it waits, at most
 * {@link OpcUaClientConfig#maxWaitingRequests()} of them and each no longer than its timeout, and goes
 * out under the session that exists once the {@link Reconnector} releases it; with
 * {@link OpcUaClientConfig.WhileReconnecting#FAIL_FAST}, or while DISCONNECTED, it fails at once with
 * BadNotConnected. The request observer sees each request sent from the moment it is built to its end.
 *
 * <p>Thread-safe. The path of a request while connected takes no lock: one volatile read of the
 * session in use. Waiting requests are guarded by the connection's lock ({@link ConnectionStatus}).
 */
final class RequestGate implements ServiceInvoker {

    private static final Logger log = LoggerFactory.getLogger(RequestGate.class);

    /** Service names per request class ({@code ReadRequest} -> {@code Read}), computed once per class. */
    private static final ClassValue<String> SERVICE_NAMES = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            String name = type.getSimpleName();
            return name.endsWith("Request") ? name.substring(0, name.length() - "Request".length()) : name;
        }
    };

    private final OpcUaClientConfig config;
    private final RequestObserver observer;
    private final ConnectionStatus status;
    private final Timer timer;
    private final Executor executor;
    private volatile ActiveSession active;
    private final ArrayDeque<Waiting<?>> waiters = new ArrayDeque<>();

    /**
     * @param timer times out the waiting requests
     * @param executor completes the futures of requests that never went out
     */
    RequestGate(OpcUaClientConfig config, ConnectionStatus status, Timer timer, Executor executor) {
        this.config = config;
        this.observer = config.requestObserver();
        this.status = status;
        this.timer = timer;
        this.executor = executor;
    }

    // ---- what the reconnector does with it --------------------------------------------------------

    /** The session requests go to now; null while none is active. */
    ActiveSession active() {
        return active;
    }

    /**
     * Requests go straight over {@code a} from now on; the ones waiting already keep waiting until
     * {@link #takeWaiting()} hands them over. Under the connection's lock.
     */
    void open(ActiveSession a) {
        active = a;
    }

    /** Requests wait (or are refused) from now on; returns the session that was in use, or null. Under the lock. */
    ActiveSession close() {
        ActiveSession a = active;
        active = null;
        return a;
    }

    /**
     * Removes the waiting requests and stops their timeouts: the caller sends them ({@link Waiting#sendOn})
     * or fails them ({@link Waiting#fail}) once it left the lock. Under the connection's lock.
     */
    List<Waiting<?>> takeWaiting() {
        List<Waiting<?>> taken = new ArrayList<>(waiters);
        waiters.clear();
        for (Waiting<?> w : taken) {
            cancel(w.timeout);
        }
        return taken;
    }

    // ---- ServiceInvoker ---------------------------------------------------------------------------

    @Override
    public <T extends UaResponseMessage> CompletableFuture<T> send(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType) {
        return send(build, responseType, config.requestTimeout().toMillis());
    }

    @Override
    public <T extends UaResponseMessage> CompletableFuture<T> send(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis) {
        ActiveSession a = active;
        if (a != null) {
            return sendOn(a, build, responseType, timeoutMillis);
        }
        return sendLater(build, responseType, timeoutMillis);
    }

    @Override
    public <T extends UaResponseMessage> CompletableFuture<T> sendCompletingOnIoThread(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis) {
        ActiveSession a = active;
        if (a == null) {
            return sendLater(build, responseType, timeoutMillis);
        }
        UaRequestMessage request;
        try {
            request = build.apply(header(a, timeoutMillis));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        RequestObserver.Call call = started(request);
        return observed(call, a.session().requestCompletingOnIoThread(request, responseType));
    }

    @Override
    public <T extends UaResponseMessage, R> CompletableFuture<R> send(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType,
            Function<? super T, ? extends R> then) {
        long timeoutMillis = config.requestTimeout().toMillis();
        ActiveSession a = active;
        if (a == null) {
            return sendLater(build, responseType, timeoutMillis).thenApply(then);
        }
        return sendOn(a, build, responseType, timeoutMillis, then);
    }

    @Override
    public <T extends UaResponseMessage, R> CompletableFuture<R> sendCall(ServiceInvoker.Call<T, R> call,
            Class<T> responseType) {
        long timeoutMillis = config.requestTimeout().toMillis();
        ActiveSession a = active;
        if (a == null) {
            return sendLater(call::request, responseType, timeoutMillis).thenApply(call);
        }
        UaRequestMessage request;
        try {
            request = call.request(header(a, timeoutMillis));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return sendOn(a, request, responseType, call);
    }

    // ---- sending over a session -------------------------------------------------------------------

    /** Builds the request around a header of {@code a}'s session and sends it, whatever the state (keep-alive). */
    <T extends UaResponseMessage> CompletableFuture<T> sendOn(ActiveSession a,
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis) {
        return sendOn(a, build, responseType, timeoutMillis, null);
    }

    private <T extends UaResponseMessage, R> CompletableFuture<R> sendOn(ActiveSession a,
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis,
            Function<? super T, ? extends R> then) {
        UaRequestMessage request;
        try {
            request = build.apply(header(a, timeoutMillis));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return sendOn(a, request, responseType, then);
    }

    /** A header of {@code a}'s session (Part 4, 7.32) with the timeout as timeoutHint. */
    private static RequestHeader header(ActiveSession a, long timeoutMillis) {
        return RequestHeaders.create(a.session().authenticationToken(), timeoutMillis);
    }

    /**
     * Sends a request built for {@code a}'s session; with {@code then} the future completes with it
     * applied to the response (null: with the response). The request observer, when there is one,
     * sees it from here to its end.
     */
    @SuppressWarnings("unchecked")
    private <T extends UaResponseMessage, R> CompletableFuture<R> sendOn(ActiveSession a, UaRequestMessage request,
            Class<T> responseType, Function<? super T, ? extends R> then) {
        RequestObserver.Call call = started(request);
        return observed(call, then == null ? (CompletableFuture<R>) a.session().request(request, responseType)
                : a.session().request(request, responseType, then));
    }

    /** The request observer's call for {@code request}, started before it is sent; null without an observer. */
    private RequestObserver.Call started(UaRequestMessage request) {
        return observer == RequestObserver.NONE ? null : observer.started(SERVICE_NAMES.get(request.getClass()));
    }

    /** Ends the observer's {@code call} (when there is one) when {@code result} completes. */
    private static <R> CompletableFuture<R> observed(RequestObserver.Call call, CompletableFuture<R> result) {
        if (call != null) {
            result.whenComplete((r, failure) -> finish(call, failure));
        }
        return result;
    }

    private static void finish(RequestObserver.Call call, Throwable failure) {
        try {
            call.finished(failure == null ? 0 : Failures.status(failure) & 0xFFFFFFFFL, Failures.unwrap(failure));
        } catch (RuntimeException e) {
            log.warn("The request observer failed: {}", e.toString());
        }
    }

    // ---- waiting for a session --------------------------------------------------------------------

    private <T extends UaResponseMessage> CompletableFuture<T> sendLater(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType, long timeoutMillis) {
        ActiveSession a;
        synchronized (status) {
            a = active;
            if (a == null) {
                UaException refused = refusal();
                if (refused != null) {
                    return CompletableFuture.failedFuture(refused);
                }
                Waiting<T> w = new Waiting<>(build, responseType, timeoutMillis);
                waiters.add(w);
                try {
                    w.timeout = timer.newTimeout(t -> expire(w), timeoutMillis, TimeUnit.MILLISECONDS);
                } catch (IllegalStateException e) {
                    waiters.remove(w);
                    return CompletableFuture.failedFuture(new UaException(StatusCodes.BadShutdown,
                            "the client's resources are closed"));
                }
                return w.result;
            }
        }
        return sendOn(a, build, responseType, timeoutMillis); // a session became active meanwhile
    }

    /** Why a request cannot wait now, or null when it may. Under the lock. */
    private UaException refusal() {
        ClientState state = status.state();
        if (state == ClientState.DISCONNECTED) {
            return new UaException(StatusCodes.BadNotConnected, "the client is not connected to "
                    + config.endpointUrl() + status.lastErrorNote());
        }
        if (config.whileReconnecting() == OpcUaClientConfig.WhileReconnecting.FAIL_FAST) {
            return new UaException(StatusCodes.BadNotConnected, "the client is " + state + " to "
                    + config.endpointUrl() + status.lastErrorNote());
        }
        if (waiters.size() >= config.maxWaitingRequests()) {
            return new UaException(StatusCodes.BadNotConnected, "the client is " + state + " to "
                    + config.endpointUrl() + " and " + waiters.size() + " requests already wait (maxWaitingRequests)");
        }
        return null;
    }

    private void expire(Waiting<?> w) {
        boolean removed;
        synchronized (status) {
            removed = waiters.remove(w);
        }
        if (removed) {
            w.fail(new UaException(StatusCodes.BadTimeout, "no connection to " + config.endpointUrl() + " within "
                    + w.timeoutMillis + " ms (" + status.state() + status.lastErrorNote() + ")"));
        }
    }

    /** Runs a completion on the callback executor, or here once that is shut down. */
    void completeLater(Runnable completion) {
        try {
            executor.execute(completion);
        } catch (RejectedExecutionException e) {
            completion.run();
        }
    }

    private static void cancel(Timeout t) {
        if (t != null) {
            t.cancel();
        }
    }

    /** A request waiting for a session. */
    final class Waiting<T extends UaResponseMessage> {
        private final Function<RequestHeader, ? extends UaRequestMessage> build;
        private final Class<T> responseType;
        private final long timeoutMillis;
        private final CompletableFuture<T> result = new CompletableFuture<>();
        private Timeout timeout;

        private Waiting(Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType,
                long timeoutMillis) {
            this.build = build;
            this.responseType = responseType;
            this.timeoutMillis = timeoutMillis;
        }

        /** Builds the request for {@code a}'s session and sends it; its answer completes the waiting future. */
        void sendOn(ActiveSession a) {
            RequestGate.this.sendOn(a, build, responseType, timeoutMillis).whenComplete((response, failure) -> {
                if (failure != null) {
                    result.completeExceptionally(Failures.unwrap(failure));
                } else {
                    result.complete(response);
                }
            });
        }

        void fail(Throwable cause) {
            completeLater(() -> result.completeExceptionally(cause));
        }
    }
}
