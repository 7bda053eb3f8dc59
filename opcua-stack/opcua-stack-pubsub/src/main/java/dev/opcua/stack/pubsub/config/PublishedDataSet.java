package dev.opcua.stack.pubsub.config;

import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.core.types.structured.FieldMetaData;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A published data set (Part 14, 6.2.3): a named list of fields whose values a DataSetWriter sends together,
 * and the metadata that describes them to readers.
 *
 * @param name unique among the publisher's data sets
 * @param fields the fields in the order they are published; names unique
 * @param version the metadata version (Part 14, 6.2.3.2.2): readers compare it with the MetaDataVersion of
 *        each message. Its MajorVersion changes when fields are added, removed or retyped.
 */
public record PublishedDataSet(String name, List<PublishedField> fields, ConfigurationVersionDataType version) {

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
        if (version == null) {
            version = versionOf(fields);
        }
    }

    public PublishedDataSet(String name, List<PublishedField> fields) {
        this(name, fields, null);
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
