package dev.opcua.stack.core.encoding.generic;

import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.UaReader;
import dev.opcua.stack.core.encoding.UaWriter;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.StructureType;
import dev.opcua.stack.core.encoding.CodecRegistry;
import java.util.List;
import java.util.Objects;

/**
 * Encodes and decodes the {@link GenericStructure} values of one {@link StructureLayout} in UA
 * Binary and UA JSON: a Structure as its fields in order (Part 6, 5.2.6); a StructureWithOptionalFields with a
 * UInt32 EncodingMask first, one bit per optional field in field order, and only the fields present
 * (5.2.7); a Union as its UInt32 SwitchField (0 for none, else the 1-based field index) and the
 * chosen field (5.2.8). Nested structures are written inline with the codec their binary encoding id
 * has in the encoder's or decoder's {@link CodecRegistry}, so a generic structure may hold generated
 * ones and the other way round.
 */
public final class GenericStructureCodec implements UaCodec<GenericStructure> {

    private final StructureLayout layout;

    public GenericStructureCodec(StructureLayout layout) {
        this.layout = Objects.requireNonNull(layout, "layout");
    }

    public StructureLayout layout() {
        return layout;
    }

    @Override
    public Class<GenericStructure> type() {
        return GenericStructure.class;
    }

    @Override
    public NodeId encodingId() {
        return layout.binaryEncodingId();
    }

    @Override
    public NodeId dataTypeId() {
        return layout.typeId();
    }

    @Override
    public void encode(UaWriter encoder, GenericStructure value) {
        if (!value.layout().binaryEncodingId().equals(layout.binaryEncodingId())) {
            throw UaEncodingException.encodingError("a " + value.layout().name() + " given to the codec of "
                    + layout.name());
        }
        List<LayoutField> fields = layout.fields();
        switch (layout.kind()) {
            case Union -> {
                int chosen = value.unionIndex();
                encoder.writeSwitchField(chosen + 1L);
                if (chosen >= 0) {
                    write(encoder, fields.get(chosen), value.get(chosen));
                }
            }
            case StructureWithOptionalFields -> {
                long mask = 0;
                int bit = 0;
                for (int i = 0; i < fields.size(); i++) {
                    if (fields.get(i).optional()) {
                        if (value.get(i) != null) {
                            mask |= 1L << bit;
                        }
                        bit++;
                    }
                }
                encoder.writeEncodingMask(mask);
                for (int i = 0; i < fields.size(); i++) {
                    if (!fields.get(i).optional() || value.get(i) != null) {
                        write(encoder, fields.get(i), value.get(i));
                    }
                }
            }
            default -> {
                for (int i = 0; i < fields.size(); i++) {
                    write(encoder, fields.get(i), value.get(i));
                }
            }
        }
    }

    @Override
    public GenericStructure decode(UaReader decoder) {
        List<LayoutField> fields = layout.fields();
        Object[] values = new Object[fields.size()];
        int unionIndex = -1;
        switch (layout.kind()) {
            case Union -> {
                long switchField = decoder.readSwitchField(layout.fieldNames());
                if (switchField > fields.size()) {
                    throw UaEncodingException.decodingError(layout.name() + ": SwitchField " + switchField
                            + " names no field, the union has " + fields.size());
                }
                unionIndex = (int) switchField - 1;
                if (unionIndex >= 0) {
                    values[unionIndex] = read(decoder, fields.get(unionIndex));
                }
            }
            case StructureWithOptionalFields -> {
                long mask = decoder.readEncodingMask(layout.optionalFieldNames());
                int bit = 0;
                for (int i = 0; i < fields.size(); i++) {
                    LayoutField field = fields.get(i);
                    boolean present = !field.optional() || (mask & (1L << bit)) != 0;
                    if (field.optional()) {
                        bit++;
                    }
                    if (present) {
                        values[i] = read(decoder, field);
                    }
                }
            }
            default -> {
                for (int i = 0; i < fields.size(); i++) {
                    values[i] = read(decoder, fields.get(i));
                }
            }
        }
        return new GenericStructure(layout, values, unionIndex);
    }

    private static void write(UaWriter encoder, LayoutField field, Object value) {
        FieldEncoding encoding = field.encoding();
        String name = field.name();
        if (encoding instanceof FieldEncoding.Builtin builtin) {
            encoder.writeField(name, builtin.type(), value, field.array());
        } else if (encoding instanceof FieldEncoding.Enumeration) {
            if (field.array()) {
                encoder.writeInt32Array(name, (int[]) value);
            } else {
                encoder.writeInt32(name, value == null ? 0 : (Integer) value);
            }
        } else {
            UaCodec<UaStructure> codec = codec(encoder.registry(), field);
            if (field.array()) {
                encoder.writeStructArray(name, (UaStructure[]) value, codec);
            } else {
                encoder.writeStruct(name, (UaStructure) value, codec);
            }
        }
    }

    private static Object read(UaReader decoder, LayoutField field) {
        FieldEncoding encoding = field.encoding();
        String name = field.name();
        if (encoding instanceof FieldEncoding.Builtin builtin) {
            return decoder.readField(name, builtin.type(), field.array());
        }
        if (encoding instanceof FieldEncoding.Enumeration) {
            return field.array() ? decoder.readInt32Array(name) : (Object) decoder.readInt32(name);
        }
        UaCodec<UaStructure> codec = codec(decoder.registry(), field);
        return field.array() ? decoder.readStructArray(name, codec, UaStructure[]::new) : decoder.readStruct(name, codec);
    }

    @SuppressWarnings("unchecked")
    private static UaCodec<UaStructure> codec(CodecRegistry registry, LayoutField field) {
        NodeId encodingId = ((FieldEncoding.Structured) field.encoding()).binaryEncodingId();
        UaCodec<?> codec = registry.codecForEncodingId(encodingId);
        if (codec == null) {
            throw UaEncodingException.encodingError("field " + field.name() + ": no codec for the structure encoding "
                    + encodingId);
        }
        return (UaCodec<UaStructure>) codec;
    }
}
