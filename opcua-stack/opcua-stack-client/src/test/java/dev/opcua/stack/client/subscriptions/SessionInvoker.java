package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaResponseMessage;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A {@link ServiceInvoker} over a real {@link ClientSession}, which the test may swap for another
 * (a new session after a reconnect), with a record of the request types sent and a switch that
 * turns the next PublishResponse carrying notifications into a BadTimeout, as if it were lost on the
 * way: the server still holds it, unacknowledged, for Republish.
 */
final class SessionInvoker implements ServiceInvoker {

    private volatile ClientSession session;
    private final AtomicInteger dropDataResponses = new AtomicInteger();
    private final List<String> sent = new CopyOnWriteArrayList<>();

    SessionInvoker(ClientSession session) {
        this.session = session;
    }

    void use(ClientSession session) {
        this.session = session;
    }

    ClientSession session() {
        return session;
    }

    /** The next {@code count} PublishResponses with notifications never reach the subscriptions. */
    void dropNextDataResponses(int count) {
        dropDataResponses.set(count);
    }

    /** Simple names of the requests sent, in order. */
    List<String> sent() {
        return List.copyOf(sent);
    }

    long sentCount(Class<?> requestType) {
        return sent.stream().filter(requestType.getSimpleName()::equals).count();
    }

    @Override
    public <T extends UaResponseMessage> CompletableFuture<T> send(Function<RequestHeader, ? extends UaRequestMessage> build,
            Class<T> responseType) {
        ClientSession s = session;
        return request(s, build.apply(s.header()), responseType);
    }

    @Override
    public <T extends UaResponseMessage> CompletableFuture<T> send(Function<RequestHeader, ? extends UaRequestMessage> build,
            Class<T> responseType, long timeoutMillis) {
        ClientSession s = session;
        RequestHeader h = s.header();
        RequestHeader withTimeout = new RequestHeader(h.authenticationToken(), h.timestamp(), h.requestHandle(),
                h.returnDiagnostics(), h.auditEntryId(), timeoutMillis, h.additionalHeader());
        return request(s, build.apply(withTimeout), responseType);
    }

    private <T extends UaResponseMessage> CompletableFuture<T> request(ClientSession s, UaRequestMessage request,
            Class<T> responseType) {
        sent.add(request.getClass().getSimpleName());
        CompletableFuture<T> response = s.request(request, responseType);
        if (responseType != PublishResponse.class) {
            return response;
        }
        return response.thenApply(r -> {
            PublishResponse p = (PublishResponse) r;
            boolean data = p.notificationMessage() != null && p.notificationMessage().notificationData() != null
                    && p.notificationMessage().notificationData().length > 0;
            if (data && dropDataResponses.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new UaException(StatusCodes.BadTimeout, "PublishResponse dropped by the test");
            }
            return r;
        });
    }
}
