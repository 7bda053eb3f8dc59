package dev.opcua.stack.core.encoding.generic;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.StructureType;
import dev.opcua.stack.core.types.structured.StructureDefinition;
import dev.opcua.stack.core.types.structured.StructureField;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The encoding of one structured DataType, taken from its StructureDefinition (Part 3, 8.48): its
 * kind, its fields in order and how each is encoded.
 *
 * <p>Supported: Structure, StructureWithOptionalFields and Union (Part 6, 5.2.6 and 5.2.7) with
 * scalar and one-dimensional array fields. The subtyped-values kinds and fields of more dimensions
 * are refused, naming the type and field.
 *
 * @param typeId NodeId of the DataType
 * @param binaryEncodingId NodeId of its "Default Binary" encoding object
 * @param kind Structure, StructureWithOptionalFields or Union
 * @param name the DataType's name, for messages
 */
public record StructureLayout(NodeId typeId, NodeId binaryEncodingId, StructureType kind, String name,
        List<LayoutField> fields) {

    public StructureLayout {
        Objects.requireNonNull(typeId, "typeId");
        Objects.requireNonNull(binaryEncodingId, "binaryEncodingId");
        Objects.requireNonNull(kind, "kind");
        fields = List.copyOf(fields);
        if (kind != StructureType.Structure && kind != StructureType.StructureWithOptionalFields
                && kind != StructureType.Union) {
            throw new IllegalArgumentException("structure " + name + " (" + typeId + ") is a " + kind
                    + ": only Structure, StructureWithOptionalFields and Union are supported");
        }
        for (LayoutField field : fields) {
            if (field.optional() && kind != StructureType.StructureWithOptionalFields) {
                throw new IllegalArgumentException("structure " + name + " (" + typeId + ") is a " + kind
                        + " but its field " + field.name() + " is optional");
            }
        }
    }

    /**
     * The layout of a StructureDefinition.
     *
     * @param typeId NodeId of the DataType
     * @param name its name, for messages
     * @param definition the definition; its DefaultEncodingId is the binary encoding
     * @param resolver the encoding of a field's DataType; throws IllegalArgumentException for one it cannot encode
     * @throws IllegalArgumentException naming the type and field when something is not supported
     */
    public static StructureLayout of(NodeId typeId, String name, StructureDefinition definition,
            Function<NodeId, FieldEncoding> resolver) {
        StructureField[] defined = definition.fields() == null ? new StructureField[0] : definition.fields();
        List<LayoutField> fields = new ArrayList<>(defined.length);
        for (StructureField field : defined) {
            int rank = field.valueRank();
            if (rank != -1 && rank != 1) {
                throw new IllegalArgumentException("structure " + name + " (" + typeId + "): field " + field.name()
                        + " has ValueRank " + rank + ", only scalars (-1) and one-dimensional arrays (1) are supported");
            }
            FieldEncoding encoding;
            try {
                encoding = resolver.apply(field.dataType());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("structure " + name + " (" + typeId + "): field " + field.name()
                        + ": " + e.getMessage(), e);
            }
            fields.add(new LayoutField(field.name(), encoding, rank == 1, field.isOptional()));
        }
        NodeId encodingId = definition.defaultEncodingId();
        if (encodingId == null || encodingId.isNull()) {
            throw new IllegalArgumentException("structure " + name + " (" + typeId + ") has no DefaultEncodingId");
        }
        return new StructureLayout(typeId, encodingId, definition.structureType(), name, fields);
    }

    /** The names of the fields, in order. */
    public List<String> fieldNames() {
        return fields.stream().map(LayoutField::name).toList();
    }

    /** The names of the optional fields, in order: bit 0 of the EncodingMask first. */
    public List<String> optionalFieldNames() {
        return fields.stream().filter(LayoutField::optional).map(LayoutField::name).toList();
    }

    /** The index of a field by name, or -1. */
    public int indexOf(String fieldName) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(fieldName)) {
                return i;
            }
        }
        return -1;
    }

    /** Fields by name, for callers that look many up. */
    public Map<String, Integer> indexes() {
        Map<String, Integer> map = new HashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            map.put(fields.get(i).name(), i);
        }
        return map;
    }
}
