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
 * <p>Standard encodings (namespace 0, numeric) are found by array index; others by hash.
 */
public final class CodecRegistry {

    private static final class StandardHolder {
        static final CodecRegistry STANDARD = builder().addAll(StandardStructures.codecs()).build();
    }

    private final UaCodec<?>[] ns0ById;
    private final Map<NodeId, UaCodec<?>> byEncodingId;
    private final Map<Class<?>, UaCodec<?>> byType;
    private final Map<NodeId, UaCodec<?>> byDataTypeId;

    private CodecRegistry(Map<NodeId, UaCodec<?>> byEncodingId, Map<Class<?>, UaCodec<?>> byType,
            Map<NodeId, UaCodec<?>> byDataTypeId) {
        int maxNs0 = -1;
        for (NodeId id : byEncodingId.keySet()) {
            if (isNs0Numeric(id)) {
                maxNs0 = Math.max(maxNs0, (int) id.numericId());
            }
        }
        this.ns0ById = new UaCodec<?>[maxNs0 + 1];
        for (Map.Entry<NodeId, UaCodec<?>> e : byEncodingId.entrySet()) {
            if (isNs0Numeric(e.getKey())) {
                ns0ById[(int) e.getKey().numericId()] = e.getValue();
            }
        }
        this.byEncodingId = Map.copyOf(byEncodingId);
        this.byType = Map.copyOf(byType);
        this.byDataTypeId = Map.copyOf(byDataTypeId);
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
            return id < ns0ById.length ? ns0ById[(int) id] : null;
        }
        return byEncodingId.get(encodingId);
    }

    /**
     * The codec for a DataType NodeId, or null when none is registered: how UA JSON finds the codec of an
     * ExtensionObject, whose {@code UaTypeId} names the DataType (Part 6, 5.4.2.16).
     */
    public UaCodec<?> codecForDataTypeId(NodeId dataTypeId) {
        return byDataTypeId.get(dataTypeId);
    }

    /** The codec for a Java type, or null when none is registered. */
    @SuppressWarnings("unchecked")
    public <T> UaCodec<T> codecForType(Class<T> type) {
        return (UaCodec<T>) byType.get(type);
    }

    /** Every registered codec. */
    public Collection<UaCodec<?>> codecs() {
        return byType.values();
    }

    /** A builder holding this registry's codecs, to add more (for example a companion specification's). */
    public Builder toBuilder() {
        return new Builder().addAll(byType.values());
    }

    /** Collects codecs; a later codec for the same encoding id, DataType id or type replaces the earlier one. */
    public static final class Builder {
        private final Map<NodeId, UaCodec<?>> byEncodingId = new HashMap<>();
        private final Map<Class<?>, UaCodec<?>> byType = new HashMap<>();
        private final Map<NodeId, UaCodec<?>> byDataTypeId = new HashMap<>();

        private Builder() {
        }

        public Builder add(UaCodec<?> codec) {
            byEncodingId.put(codec.encodingId(), codec);
            byType.put(codec.type(), codec);
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

        public CodecRegistry build() {
            return new CodecRegistry(byEncodingId, byType, byDataTypeId);
        }
    }
}
