package dev.opcua.stack.pubsub.server;

import dev.opcua.stack.core.types.enumerated.PubSubState;
import dev.opcua.stack.pubsub.runtime.PubSubService;

/**
 * The PubSubState of each configuration object (Part 14, 6.2.1) as a {@link PubSubService} runs it, read when a
 * client reads a State variable. The service switches writer groups and readers only, and its connections are
 * up or down, so the states follow from three facts:
 * <ul>
 *   <li>PublishSubscribe is Operational while the model exists (the service is the running PubSub);</li>
 *   <li>a connection is Operational while its transport is connected, else Error (it cannot be disabled);</li>
 *   <li>a writer group or reader is Disabled when switched off; otherwise it takes its connection's state
 *       (Operational, or Error while the transport is down: it can neither send nor receive);</li>
 *   <li>a DataSetWriter, which cannot be switched itself, is Paused while its group is Disabled (Part 14, 6.2.1:
 *       enabled, but the parent is Disabled or Paused), else the group's state; the implicit reader group
 *       takes its connection's state.</li>
 * </ul>
 */
final class PubSubStates {

    private final PubSubService service;

    PubSubStates(PubSubService service) {
        this.service = service;
    }

    PubSubState connection(String connection) {
        return Boolean.TRUE.equals(service.connectionStates().get(connection))
                ? PubSubState.Operational : PubSubState.Error;
    }

    /** A writer group or a reader of the connection. */
    PubSubState switchable(String connection, String groupOrReader) {
        if (Boolean.FALSE.equals(service.isEnabled(groupOrReader))) {
            return PubSubState.Disabled;
        }
        return connection(connection);
    }

    PubSubState dataSetWriter(String connection, String group) {
        PubSubState parent = switchable(connection, group);
        return parent == PubSubState.Disabled || parent == PubSubState.Paused ? PubSubState.Paused : parent;
    }
}
