package dev.opcua.stack.server.subscriptions.durable;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.namespace0.Namespace0NodeManager;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.subscriptions.SubscriptionManager;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Server object's SetSubscriptionDurable method (i=12749; Part 5, 9.3; its use Part 4, 6.8 Durable
 * Subscriptions): {@code SetSubscriptionDurable([in] UInt32 subscriptionId, [in] UInt32 lifetimeInHours,
 * [out] UInt32 revisedLifetimeInHours)}. Called on the Server object (i=2253) by the session that owns the
 * subscription, before its monitored items are created; the rest is
 * {@link SubscriptionManager#setSubscriptionDurable}.
 *
 * <p>Results: Good with the revised hours (0 and anything above the configured maximum are revised to
 * the maximum, never refused); Bad_SubscriptionIdInvalid, Bad_UserAccessDenied (another session's
 * subscription), Bad_InvalidState (it has monitored items already), Bad_SessionIdInvalid without a
 * session, Bad_ArgumentsMissing / Bad_TooManyArguments / Bad_InvalidArgument with per-argument
 * Bad_TypeMismatch for arguments that are not scalar UInt32.
 */
public final class SetSubscriptionDurable {

    private static final Logger log = LoggerFactory.getLogger(SetSubscriptionDurable.class);

    /** The method of the Server object, i=12749. */
    public static final NodeId METHOD = NodeId.ns0(NodeIds.Server_SetSubscriptionDurable);
    /** The Server object, i=2253. */
    public static final NodeId SERVER = NodeId.ns0(NodeIds.Server);

    private final SubscriptionManager subscriptions;

    public SetSubscriptionDurable(SubscriptionManager subscriptions) {
        this.subscriptions = Objects.requireNonNull(subscriptions, "subscriptions");
    }

    /** Puts the method's code into namespace 0. */
    public void register(Namespace0NodeManager namespace0) {
        namespace0.method(SERVER, METHOD, this::call);
    }

    /** Answers one call. */
    public void call(OperationContext context, CallOperation operation) {
        if (!operation.requireServerMethodOfSession(context, 2)) {
            return;
        }
        Variant[] inputs = operation.inputArguments();
        long subscriptionId = (Long) inputs[0].value();
        long hours = (Long) inputs[1].value();
        try {
            long revised = subscriptions.setSubscriptionDurable(context.session(), subscriptionId, hours);
            log.info("subscription {} of {} is durable for {} h (asked {} h)", subscriptionId, context.identity(),
                    revised, hours);
            operation.complete(new Variant[] {Variant.ofUInt32(revised)});
        } catch (UaException e) {
            log.debug("SetSubscriptionDurable({}, {}) refused: {}", subscriptionId, hours, e.getMessage());
            operation.fail(e.statusCode().value());
        }
    }
}
