package dev.opcua.stack.core.encoding;

import dev.opcua.stack.core.types.builtin.IdType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.StandardStructures;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the codec of a structure by its binary encoding id (for decoding ExtensionObjects and
 * messages), by its DataType id (UA JSON) or by its Java type. Immutable once built, so lookups take no lock.
 *
 * <p>Standard encodings (namespace 0, numeric) are found by array index; others by hash. The standard
 * structures' codecs are registered by their ids and class names and loaded on first lookup
 * ({@link StandardStructures#codec}): an application uses a few dozen of the ~300 standard structures, and
 * loading every class at start would cost its memory and start-up time for nothing.
 */
public final class CodecRegistry {

    private static final class StandardHolder {
        static final CodecRegistry STANDARD = builder().addStandard().build();
    }

    /** Per namespace-0 numeric encoding id: a {@link UaCodec}, a {@link Standard} not loaded yet, or null. */
    private final Object[] ns0ById;
    private final Map<NodeId, Object> byEncodingId;
    private final Map<String, Object> byTypeName;
    private final Map<NodeId, Object> byDataTypeId;

    private CodecRegistry(Builder builder) {
        int maxNs0 = -1;
        for (NodeId id : builder.byEncodingId.keySet()) {
            if (isNs0Numeric(id)) {
                maxNs0 = Math.max(maxNs0, (int) id.numericId());
            }
        }
        this.ns0ById = new Object[maxNs0 + 1];
        for (Map.Entry<NodeId, Object> e : builder.byEncodingId.entrySet()) {
            if (isNs0Numeric(e.getKey())) {
                ns0ById[(int) e.getKey().numericId()] = e.getValue();
            }
        }
        this.byEncodingId = Map.copyOf(builder.byEncodingId);
        this.byTypeName = Map.copyOf(builder.byTypeName);
        this.byDataTypeId = Map.copyOf(builder.byDataTypeId);
    }

    private static boolean isNs0Numeric(NodeId id) {
        return id.namespaceIndex() == 0 && id.idType() == IdType.Numeric && id.numericId() < (1 << 16);
    }

    /** The codecs of every standard structure of the OPC UA specification. */
    public static CodecRegistry standard() {
        return StandardHolder.STANDARD;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The codec for a binary encoding id, or null when none is registered. */
    public UaCodec<?> codecForEncodingId(NodeId encodingId) {
        if (encodingId.namespaceIndex() == 0 && encodingId.idType() == IdType.Numeric) {
            long id = encodingId.numericId();
            if (id >= ns0ById.length) {
                return null;
            }
            Object entry = ns0ById[(int) id];
            if (entry instanceof UaCodec<?> codec) {
                return codec;
            }
            UaCodec<?> codec = codec(entry);
            if (codec != null) {
                // A racing thread may load the same codec: both store the one static instance of its class.
                ns0ById[(int) id] = codec;
            }
            return codec;
        }
        return codec(byEncodingId.get(encodingId));
    }

    /**
     * The codec for a DataType NodeId, or null when none is registered: how UA JSON finds the codec of an
     * ExtensionObject, whose {@code UaTypeId} names the DataType (Part 6, 5.4.2.16).
     */
    public UaCodec<?> codecForDataTypeId(NodeId dataTypeId) {
        return codec(byDataTypeId.get(dataTypeId));
    }

    /** The codec for a Java type, or null when none is registered. */
    @SuppressWarnings("unchecked")
    public <T> UaCodec<T> codecForType(Class<T> type) {
        UaCodec<?> codec = codec(byTypeName.get(type.getName()));
        // Keyed by name, so that a standard codec is found without loading its class; a class of the same
        // name from another class loader is another type.
        return codec != null && codec.type() == type ? (UaCodec<T>) codec : null;
    }

    /** Every registered codec (loads every standard structure's class). */
    public Collection<UaCodec<?>> codecs() {
        List<UaCodec<?>> codecs = new ArrayList<>(byTypeName.size());
        byTypeName.values().forEach(entry -> codecs.add(codec(entry)));
        return codecs;
    }

    /** A builder holding this registry's codecs, to add more (for example a companion specification's). */
    public Builder toBuilder() {
        Builder builder = new Builder();
        byTypeName.values().forEach(builder::put);
        return builder;
    }

    private static UaCodec<?> codec(Object entry) {
        return entry == null ? null : entry instanceof UaCodec<?> codec ? codec : ((Standard) entry).load();
    }

    /** A standard structure's codec known by its ids and class name, its class not loaded yet. */
    private record Standard(int index, NodeId encodingId, NodeId dataTypeId, String typeName) {

        UaCodec<?> load() {
            return StandardStructures.codec(index);
        }
    }

    /** Collects codecs; a later codec for the same encoding id, DataType id or type replaces the earlier one. */
    public static final class Builder {
        private final Map<NodeId, Object> byEncodingId = new HashMap<>();
        private final Map<String, Object> byTypeName = new HashMap<>();
        private final Map<NodeId, Object> byDataTypeId = new HashMap<>();

        private Builder() {
        }

        public Builder add(UaCodec<?> codec) {
            byEncodingId.put(codec.encodingId(), codec);
            byTypeName.put(codec.type().getName(), codec);
            if (codec.dataTypeId() != null) {
                byDataTypeId.put(codec.dataTypeId(), codec);
            }
            return this;
        }

        public Builder addAll(Collection<? extends UaCodec<?>> codecs) {
            List<UaCodec<?>> copy = new ArrayList<>(codecs);
            copy.forEach(this::add);
            return this;
        }

        /** Every standard structure's codec, each loaded when it is first looked up. */
        Builder addStandard() {
            for (int i = 0; i < StandardStructures.size(); i++) {
                put(new Standard(i, NodeId.ns0(StandardStructures.encodingId(i)),
                        NodeId.ns0(StandardStructures.dataTypeId(i)), StandardStructures.typeName(i)));
            }
            return this;
        }

        private void put(Object entry) {
            if (entry instanceof Standard standard) {
                byEncodingId.put(standard.encodingId(), standard);
                byTypeName.put(standard.typeName(), standard);
                byDataTypeId.put(standard.dataTypeId(), standard);
            } else {
                add((UaCodec<?>) entry);
            }
        }

        public CodecRegistry build() {
            return new CodecRegistry(this);
        }
    }
}
