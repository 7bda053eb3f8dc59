package dev.opcua.stack.server.namespace0;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The node manager of namespace 0: its nodes in memory, and the standard methods the server
 * implements, registered by method id (such as ConditionType's ConditionRefresh, Part 9, 5.5.7),
 * each of which checks its object itself. Other calls answer as for any node store (Part 4, 5.11.2):
 * BadNodeIdUnknown, BadNodeIdInvalid, BadMethodInvalid, or BadNotImplemented for a standard method
 * of the object that has no code here.
 */
public final class Namespace0NodeManager extends NodeStoreNodeManager {

    /** The code of a standard method; completes the operation. */
    @FunctionalInterface
    public interface StandardMethod {
        void call(OperationContext context, CallOperation operation);
    }

    private final Map<NodeId, StandardMethod> methods = new ConcurrentHashMap<>();
    /** The one object a method registered with {@link #method(NodeId, NodeId, StandardMethod)} is called on. */
    private final Map<NodeId, NodeId> methodObjects = new ConcurrentHashMap<>();

    /** Namespace 0's value sources read the server's own counters and fields: never waiting. */
    public Namespace0NodeManager(NodeStore store) {
        super(List.of(NamespaceTable.OPC_UA_NAMESPACE), store, true);
    }

    /** Implements a standard method of namespace 0. */
    public void method(NodeId methodId, StandardMethod method) {
        methods.put(methodId, method);
    }

    /**
     * Implements a standard method of namespace 0 that belongs to one object (such as the Server object's
     * GetMonitoredItems, Part 5, 9.1): a call on another object gets the answer of any method not of that object
     * (Part 4, 5.11.2: Bad_NodeIdUnknown, Bad_NodeIdInvalid or Bad_MethodInvalid).
     */
    public void method(NodeId objectId, NodeId methodId, StandardMethod method) {
        methodObjects.put(methodId, objectId);
        methods.put(methodId, method);
    }

    @Override
    public void callNow(OperationContext context, List<CallOperation> operations) {
        List<CallOperation> withoutCode = null;
        for (CallOperation operation : operations) {
            StandardMethod method = methods.get(operation.methodId());
            NodeId object = methodObjects.get(operation.methodId());
            if (method != null && (object == null || object.equals(operation.objectId()))) {
                method.call(context, operation);
            } else {
                if (withoutCode == null) {
                    withoutCode = new ArrayList<>();
                }
                withoutCode.add(operation);
            }
        }
        if (withoutCode != null) {
            super.callNow(context, withoutCode);
        }
    }
}
