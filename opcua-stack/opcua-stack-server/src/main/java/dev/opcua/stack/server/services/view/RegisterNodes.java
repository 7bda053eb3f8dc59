package dev.opcua.stack.server.services.view;

import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.structured.RegisterNodesRequest;
import dev.opcua.stack.core.types.structured.RegisterNodesResponse;
import dev.opcua.stack.core.types.structured.UnregisterNodesRequest;
import dev.opcua.stack.core.types.structured.UnregisterNodesResponse;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.services.ServiceDispatcher;

/**
 * RegisterNodes and UnregisterNodes (Part 4, 5.8.5 and 5.8.6). Our node managers find any node by
 * an array lookup and a hash, so there is nothing to prepare: RegisterNodes answers the NodeIds it
 * was given, which the specification allows ("the Server may return the NodeIds passed in"), and
 * UnregisterNodes answers Good.
 *
 * <p>Request faults of both: no nodes BadNothingToDo, more than MaxNodesPerRegisterNodes
 * (0 = no limit) BadTooManyOperations.
 */
public final class RegisterNodes {

    private final RequestGuard guard;
    private final int maxNodesPerRegisterNodes;

    /**
     * @param guard check run before each request, e.g. that it has an activated session
     * @param maxNodesPerRegisterNodes operation limit, 0 for none
     */
    public RegisterNodes(RequestGuard guard, int maxNodesPerRegisterNodes) {
        this.guard = guard;
        this.maxNodesPerRegisterNodes = maxNodesPerRegisterNodes;
    }

    /** Registers RegisterNodes and UnregisterNodes with a dispatcher. */
    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher.registerSync(RegisterNodesRequest.class, this::register)
                .registerSync(UnregisterNodesRequest.class, this::unregister);
    }

    public RegisterNodesResponse register(ServerSecureChannel channel, RegisterNodesRequest request) {
        guard.check(channel, request.requestHeader());
        int count = request.nodesToRegister() == null ? 0 : request.nodesToRegister().length;
        OperationLimits.check(count, maxNodesPerRegisterNodes, "nodes to register");
        return new RegisterNodesResponse(ResponseHeaders.good(request.requestHeader().requestHandle()),
                request.nodesToRegister().clone());
    }

    public UnregisterNodesResponse unregister(ServerSecureChannel channel, UnregisterNodesRequest request) {
        guard.check(channel, request.requestHeader());
        int count = request.nodesToUnregister() == null ? 0 : request.nodesToUnregister().length;
        OperationLimits.check(count, maxNodesPerRegisterNodes, "nodes to unregister");
        return new UnregisterNodesResponse(ResponseHeaders.good(request.requestHeader().requestHandle()));
    }
}
