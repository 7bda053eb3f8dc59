package dev.opcua.stack.client.discovery;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.FindServersResponse;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The Discovery services of Part 4, 5.4 (5.5 in later 1.05 releases) over a short-lived secure
 * channel with SecurityPolicy None: each call connects (or takes the channel it is given, such as one
 * of reverse connect), sends one request without a session and closes the channel whatever happens.
 */
public final class DiscoveryClient {

    private static final String[] NONE = new String[0];

    private DiscoveryClient() {
    }

    /** GetEndpoints (Part 4, 5.4.4) with default quotas on the shared client resources. */
    public static CompletableFuture<EndpointDescription[]> getEndpoints(String endpointUrl) {
        return getEndpoints(endpointUrl, TransportQuotas.DEFAULT, ClientResources.shared());
    }

    /**
     * GetEndpoints (Part 4, 5.4.4): every endpoint of the server, in any locale and for any transport
     * profile; the request carries {@code endpointUrl} so the server can answer with URLs the client
     * can reach.
     */
    public static CompletableFuture<EndpointDescription[]> getEndpoints(String endpointUrl, TransportQuotas quotas,
            ClientResources resources) {
        return getEndpoints(UaTcpClientChannel.connect(endpointUrl, quotas, resources), endpointUrl, quotas);
    }

    /**
     * GetEndpoints (Part 4, 5.4.4) over a channel opened elsewhere, such as one of reverse connect (Part 6, 7.1.3),
     * closed afterwards as the other calls close theirs.
     *
     * @param opening the channel, with SecurityPolicy None
     */
    public static CompletableFuture<EndpointDescription[]> getEndpoints(CompletableFuture<UaTcpClientChannel> opening,
            String endpointUrl, TransportQuotas quotas) {
        return withChannel(opening, channel -> channel
                .request(new GetEndpointsRequest(header(quotas), endpointUrl, NONE, NONE), GetEndpointsResponse.class)
                .thenApply(response -> orEmpty(response.endpoints(), new EndpointDescription[0])));
    }

    /** FindServers (Part 4, 5.4.2) with default quotas on the shared client resources. */
    public static CompletableFuture<ApplicationDescription[]> findServers(String endpointUrl) {
        return findServers(endpointUrl, TransportQuotas.DEFAULT, ClientResources.shared());
    }

    /** FindServers (Part 4, 5.4.2): every server the endpoint knows, itself included, in any locale. */
    public static CompletableFuture<ApplicationDescription[]> findServers(String endpointUrl, TransportQuotas quotas,
            ClientResources resources) {
        return withChannel(UaTcpClientChannel.connect(endpointUrl, quotas, resources), channel -> channel
                .request(new FindServersRequest(header(quotas), endpointUrl, NONE, NONE), FindServersResponse.class)
                .thenApply(response -> orEmpty(response.servers(), new ApplicationDescription[0])));
    }

    private static RequestHeader header(TransportQuotas quotas) {
        return RequestHeaders.create(quotas.operationTimeout().toMillis());
    }

    private static <T> T[] orEmpty(T[] values, T[] empty) {
        return values == null ? empty : values;
    }

    /** Runs one call on a new channel and closes it afterwards, success or not; completes after the close. */
    private static <R> CompletableFuture<R> withChannel(CompletableFuture<UaTcpClientChannel> opening,
            Function<UaTcpClientChannel, CompletableFuture<R>> call) {
        return opening.thenCompose(channel -> {
            CompletableFuture<R> result = new CompletableFuture<>();
            CompletableFuture<R> response;
            try {
                response = call.apply(channel);
            } catch (RuntimeException e) {
                response = CompletableFuture.failedFuture(e);
            }
            response.whenComplete((value, failure) -> channel.close().whenComplete((closed, ignored) -> {
                if (failure != null) {
                    result.completeExceptionally(Failures.unwrap(failure));
                } else {
                    result.complete(value);
                }
            }));
            return result;
        });
    }
}
