package dev.opcua.stack.client.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaResponseMessage;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.ResponseHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A {@link ServiceInvoker} whose server is the test: every request is built at once and waits in a
 * list until the test answers it; answers complete on the test's thread, so what follows runs there
 * too, deterministically.
 */
final class ScriptedInvoker implements ServiceInvoker {

    /** A request and how long the client would wait for it. */
    static final class Call {
        final UaRequestMessage request;
        final long timeoutMillis;
        final CompletableFuture<UaResponseMessage> future = new CompletableFuture<>();

        Call(UaRequestMessage request, long timeoutMillis) {
            this.request = request;
            this.timeoutMillis = timeoutMillis;
        }

        void answer(UaResponseMessage response) {
            future.complete(response);
        }

        void fail(int statusCode) {
            future.completeExceptionally(new UaException(statusCode, "scripted failure"));
        }
    }

    private final List<Call> pending = new ArrayList<>();
    private final List<UaRequestMessage> sent = new ArrayList<>();

    @Override
    public <T extends UaResponseMessage> CompletableFuture<T> send(Function<RequestHeader, ? extends UaRequestMessage> build,
            Class<T> responseType) {
        return send(build, responseType, 10_000);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends UaResponseMessage> CompletableFuture<T> send(Function<RequestHeader, ? extends UaRequestMessage> build,
            Class<T> responseType, long timeoutMillis) {
        UaRequestMessage request = build.apply(RequestHeaders.create(timeoutMillis));
        Call call = new Call(request, timeoutMillis);
        pending.add(call);
        sent.add(request);
        return call.future.thenApply(r -> responseType.cast(r));
    }

    /** The oldest unanswered request of this type; fails when there is none. */
    Call take(Class<? extends UaRequestMessage> type) {
        for (Call c : pending) {
            if (type.isInstance(c.request)) {
                pending.remove(c);
                return c;
            }
        }
        throw new AssertionError("no pending " + type.getSimpleName() + "; pending: " + describe());
    }

    <R extends UaRequestMessage> R takeRequest(Class<R> type) {
        return type.cast(take(type).request);
    }

    /** How many requests of this type wait for an answer. */
    int pending(Class<? extends UaRequestMessage> type) {
        return (int) pending.stream().filter(c -> type.isInstance(c.request)).count();
    }

    /** Every request of this type ever sent, in order. */
    <R extends UaRequestMessage> List<R> sent(Class<R> type) {
        return sent.stream().filter(type::isInstance).map(type::cast).toList();
    }

    void assertNothingPendingBut(Class<?>... types) {
        assertThat(pending).allMatch(c -> List.of(types).stream().anyMatch(t -> t.isInstance(c.request)),
                "only " + List.of(types) + " pending");
    }

    private String describe() {
        return pending.stream().map(c -> c.request.getClass().getSimpleName()).toList().toString();
    }

    static ResponseHeader header() {
        return new ResponseHeader(DateTime.now(), 0, StatusCode.GOOD, null, null, ExtensionObject.NULL);
    }
}
