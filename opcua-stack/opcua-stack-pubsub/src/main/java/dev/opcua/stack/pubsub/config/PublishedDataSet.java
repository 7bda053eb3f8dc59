package dev.opcua.stack.pubsub.config;

import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.core.types.structured.FieldMetaData;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A published data set (Part 14, 6.2.3): a named list of fields whose values a DataSetWriter sends together,
 * and the metadata that describes them to readers. Its fields come either from variables (6.2.3.2
 * PublishedDataItems: sampled every publishing interval, key and delta frames) or, when {@code events} is set,
 * from the events of a notifier (6.2.3.3 PublishedEvents: one EVENT message per event); see
 * {@link #events(String, NodeId, List)}.
 *
 * @param name unique among the publisher's data sets
 * @param fields the fields in the order they are published; names unique
 * @param version the metadata version (Part 14, 6.2.3.2.2): readers compare it with the MetaDataVersion of
 *        each message. Its MajorVersion changes when fields are added, removed or retyped.
 * @param events the notifier and the operands that select each field from its events, or null for a data set of
 *        variables
 */
public record PublishedDataSet(String name, List<PublishedField> fields, ConfigurationVersionDataType version,
        PublishedEvents events) {

    public PublishedDataSet {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a published data set needs a name");
        }
        fields = List.copyOf(fields);
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("published data set " + name + " has no fields");
        }
        Set<String> names = new HashSet<>();
        for (PublishedField field : fields) {
            if (!names.add(field.name())) {
                throw new IllegalArgumentException("published data set " + name + " has two fields named "
                        + field.name());
            }
        }
        if (events != null && events.selectedFields().size() != fields.size()) {
            throw new IllegalArgumentException("published events data set " + name + " has " + fields.size()
                    + " fields but selects " + events.selectedFields().size());
        }
        if (version == null) {
            version = versionOf(fields);
        }
    }

    /** A data set of variables (or of values the application supplies) with the given version. */
    public PublishedDataSet(String name, List<PublishedField> fields, ConfigurationVersionDataType version) {
        this(name, fields, version, null);
    }

    /** A data set of variables (or of values the application supplies), versioned by its field layout. */
    public PublishedDataSet(String name, List<PublishedField> fields) {
        this(name, fields, null, null);
    }

    /** A data set of the events of a notifier, every event published. */
    public static PublishedDataSet events(String name, NodeId notifier, List<PublishedEventField> fields) {
        return events(name, notifier, fields, null);
    }

    /**
     * A data set of the events of a notifier (and of the notifiers below it) that pass the where clause.
     *
     * @param where a ContentFilter as in an EventFilter's where clause (Part 4, 7.7), or null for every event
     */
    public static PublishedDataSet events(String name, NodeId notifier, List<PublishedEventField> fields,
            ContentFilter where) {
        List<PublishedField> published = new ArrayList<>(fields.size());
        List<SimpleAttributeOperand> selected = new ArrayList<>(fields.size());
        for (PublishedEventField field : fields) {
            published.add(new PublishedField(field.name(), null, field.builtInType(), null, field.valueRank()));
            selected.add(field.select());
        }
        return new PublishedDataSet(name, published, null, new PublishedEvents(notifier, selected, where));
    }

    /** Whether this data set publishes events (PublishedEvents) rather than sampled values. */
    public boolean isEvents() {
        return events != null;
    }

    /**
     * A version derived from the field layout, so that a publisher restarted with the same fields keeps its
     * version and one with other fields gets another (Part 14, 6.2.3.2.2 only asks that it changes).
     */
    private static ConfigurationVersionDataType versionOf(List<PublishedField> fields) {
        long hash = 17;
        for (PublishedField field : fields) {
            hash = hash * 31 + field.name().hashCode();
            hash = hash * 31 + field.builtInType().ordinal();
            hash = hash * 31 + field.valueRank();
        }
        long version = (hash & 0x7FFF_FFFFL) | 1L;
        return new ConfigurationVersionDataType(version, version);
    }

    /** The field's index, or -1. */
    public int indexOf(String fieldName) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(fieldName)) {
                return i;
            }
        }
        return -1;
    }

    /** The DataSetMetaData of this data set (Part 14, 6.2.3.2.1). */
    public DataSetMetaDataType metaData() {
        FieldMetaData[] meta = new FieldMetaData[fields.size()];
        for (int i = 0; i < meta.length; i++) {
            PublishedField field = fields.get(i);
            meta[i] = new FieldMetaData(field.name(), LocalizedText.NULL, 0,
                    (short) field.builtInType().typeId(), field.dataType(), field.valueRank(), null, 0,
                    new UUID(0L, i + 1L), null);
        }
        return new DataSetMetaDataType(null, null, null, null, name, LocalizedText.NULL, meta,
                new UUID(0L, 0L), version);
    }
}
