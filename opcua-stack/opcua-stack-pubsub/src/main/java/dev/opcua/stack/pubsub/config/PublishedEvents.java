package dev.opcua.stack.pubsub.config;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.PublishedEventsDataType;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import java.util.List;
import java.util.Objects;

/**
 * The source of an events data set (Part 14, 6.2.3.3 PublishedEventsDataType): the events of a notifier (and of
 * the notifiers below it), each published as one EVENT data set message with the selected fields.
 *
 * @param notifier the EventNotifier whose events are published, e.g. the Server object (i=2253)
 * @param selectedFields one operand per field of the data set, in field order
 * @param filter a where clause the events must pass (Part 4, 7.7), or null for every event
 */
public record PublishedEvents(NodeId notifier, List<SimpleAttributeOperand> selectedFields, ContentFilter filter) {

    public PublishedEvents {
        Objects.requireNonNull(notifier, "notifier");
        if (notifier.isNull()) {
            throw new IllegalArgumentException("a published events data set needs a notifier, was the null NodeId");
        }
        selectedFields = List.copyOf(selectedFields);
        if (selectedFields.isEmpty()) {
            throw new IllegalArgumentException("a published events data set selects at least one field");
        }
    }

    /** As the PublishedDataSetSource of the information model and of configuration files. */
    public PublishedEventsDataType toDataType() {
        return new PublishedEventsDataType(notifier, selectedFields.toArray(SimpleAttributeOperand[]::new), filter);
    }
}
