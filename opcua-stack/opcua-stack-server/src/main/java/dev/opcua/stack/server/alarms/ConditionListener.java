package dev.opcua.stack.server.alarms;

import dev.opcua.stack.server.subscriptions.events.FieldPath;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.Map;

/**
 * Told of every state change of a condition (each one a ConditionType event, Part 9, 5.5.2), under the
 * condition's lock and in the order of the changes: the {@link ConditionManager} mirrors the fields into
 * the instance's variables and reports the event on the source's notifier. Must be quick and must not
 * block.
 */
@FunctionalInterface
public interface ConditionListener {

    /** Ignores every change (a condition not yet attached to a manager). */
    ConditionListener NONE = (condition, event, fields) -> { };

    /**
     * @param event the event of the change, or null when the change is not reported (the condition is
     *     disabled): the variables still change
     * @param fields every field of the condition after the change
     */
    void changed(Condition condition, UaEvent event, Map<FieldPath, Variant> fields);
}
