package dev.opcua.stack.pubsub.server;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.roles.WellKnownRole;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node manager of the namespace that holds the PubSub configuration objects (Part 14, 9.1): their nodes in
 * memory, and the Enable and Disable Methods of the Status objects of writer groups and readers (Part 14,
 * 9.1.10.2 and 9.1.10.3), which switch the element in the {@link PubSubService}.
 *
 * <p>The Methods are the standard ones of PubSubStatusType in namespace 0, referenced by each Status object (as
 * Part 3, 5.7 lets Objects share a Method); Call is routed by the object, so their calls come here. A call:
 * <ul>
 *   <li>on a Status object that has no switch (a connection's, a DataSetWriter's, the implicit reader group's)
 *       is BadMethodInvalid: the object does not reference the Method;</li>
 *   <li>with input arguments is BadTooManyArguments (both Methods take none);</li>
 *   <li>of a session without the ConfigureAdmin role (Part 3, 4.9.2: who may change the non-security
 *       configuration, which Part 14, 9.1.10.2 asks of the caller) is BadUserAccessDenied;</li>
 *   <li>of Enable on an enabled element, or Disable on a disabled one, is BadInvalidState (Part 14, 9.1.10.2:
 *       Enable only from Disabled; 9.1.10.3: Disable not from Disabled).</li>
 * </ul>
 * Calls of the server itself (no session) act with every role.
 */
final class PubSubNodeManager extends NodeStoreNodeManager {

    private static final Logger LOG = LoggerFactory.getLogger(PubSubNodeManager.class);
    static final NodeId ENABLE = NodeId.ns0(NodeIds.PubSubStatusType_Enable);
    static final NodeId DISABLE = NodeId.ns0(NodeIds.PubSubStatusType_Disable);

    private final PubSubService service;
    /** Status object → the name of the writer group or reader it switches. */
    private final Map<NodeId, String> switches = new ConcurrentHashMap<>();

    /** Its value sources read the service's flags and its transports' connection state: never waiting. */
    PubSubNodeManager(String namespaceUri, NodeStore store, PubSubService service) {
        super(List.of(namespaceUri), store, true);
        this.service = service;
    }

    /** Lets the Enable and Disable Methods on {@code statusObject} switch the named writer group or reader. */
    void addSwitch(NodeId statusObject, String groupOrReader) {
        switches.put(statusObject, groupOrReader);
    }

    @Override
    public void callNow(OperationContext context, List<CallOperation> operations) {
        List<CallOperation> others = null;
        for (CallOperation operation : operations) {
            String name = switches.get(operation.objectId());
            boolean enable = ENABLE.equals(operation.methodId());
            if (name != null && (enable || DISABLE.equals(operation.methodId()))) {
                toggle(context, operation, name, enable);
            } else {
                if (others == null) {
                    others = new ArrayList<>();
                }
                others.add(operation);
            }
        }
        if (others != null) {
            super.callNow(context, others);
        }
    }

    private void toggle(OperationContext context, CallOperation operation, String name, boolean enable) {
        String method = enable ? "Enable" : "Disable";
        Variant[] inputs = operation.inputArguments();
        if (inputs != null && inputs.length > 0) {
            operation.fail(StatusCodes.BadTooManyArguments);
            return;
        }
        if (context.session() != null && (context.roles() & WellKnownRole.CONFIGURE_ADMIN.mask()) == 0) {
            LOG.warn("PubSub {} of {} refused for {}: no ConfigureAdmin role", method, name, context.identity());
            operation.fail(StatusCodes.BadUserAccessDenied);
            return;
        }
        synchronized (this) { // two clients switching the same element: one wins, the other sees the new state
            Boolean enabled = service.isEnabled(name);
            if (enabled == null) {
                operation.fail(StatusCodes.BadInternalError); // the model was built from this service's configuration
                return;
            }
            if (enabled == enable) {
                operation.fail(StatusCodes.BadInvalidState);
                return;
            }
            service.setEnabled(name, enable);
        }
        LOG.info("PubSub {}: {} called by {}", name, method,
                context.identity() == null ? "the server" : context.identity());
        operation.complete(new Variant[0]);
    }
}
