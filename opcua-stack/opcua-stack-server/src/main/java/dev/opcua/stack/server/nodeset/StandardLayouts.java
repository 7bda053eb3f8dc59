package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.encoding.generic.FieldEncoding;
import dev.opcua.stack.core.encoding.generic.LayoutField;
import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.StructureType;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.structured.EUInformation;
import dev.opcua.stack.core.types.structured.EnumValueType;
import dev.opcua.stack.core.types.structured.Range;
import java.util.List;
import java.util.Map;

/**
 * The field layouts (Part 5, 12) of the namespace-0 structures nodesets use in values, so that their
 * XML bodies become the generated classes: Argument (Part 3, 8.6), EnumValueType (Part 3, 8.52),
 * EUInformation and Range (Part 8, 5.6.3 and 5.6.2). Namespace 0 is loaded without its
 * DataTypeDefinitions, hence this small table; a body of another namespace-0 structure is kept as XML.
 */
final class StandardLayouts {

    private static final Map<NodeId, StructureLayout> BY_TYPE = Map.of(
            Argument.TYPE_ID, layout(Argument.TYPE_ID, Argument.BINARY_ENCODING_ID, "Argument",
                    field("Name", BuiltinType.String, false), field("DataType", BuiltinType.NodeId, false),
                    field("ValueRank", BuiltinType.Int32, false), field("ArrayDimensions", BuiltinType.UInt32, true),
                    field("Description", BuiltinType.LocalizedText, false)),
            EnumValueType.TYPE_ID, layout(EnumValueType.TYPE_ID, EnumValueType.BINARY_ENCODING_ID, "EnumValueType",
                    field("Value", BuiltinType.Int64, false), field("DisplayName", BuiltinType.LocalizedText, false),
                    field("Description", BuiltinType.LocalizedText, false)),
            EUInformation.TYPE_ID, layout(EUInformation.TYPE_ID, EUInformation.BINARY_ENCODING_ID, "EUInformation",
                    field("NamespaceUri", BuiltinType.String, false), field("UnitId", BuiltinType.Int32, false),
                    field("DisplayName", BuiltinType.LocalizedText, false),
                    field("Description", BuiltinType.LocalizedText, false)),
            Range.TYPE_ID, layout(Range.TYPE_ID, Range.BINARY_ENCODING_ID, "Range",
                    field("Low", BuiltinType.Double, false), field("High", BuiltinType.Double, false)));

    private StandardLayouts() {
    }

    /** The layout of a namespace-0 structure this table knows, or null. */
    static StructureLayout of(NodeId dataType) {
        return BY_TYPE.get(dataType);
    }

    private static StructureLayout layout(NodeId type, NodeId encoding, String name, LayoutField... fields) {
        return new StructureLayout(type, encoding, StructureType.Structure, name, List.of(fields));
    }

    private static LayoutField field(String name, BuiltinType type, boolean array) {
        return new LayoutField(name, new FieldEncoding.Builtin(type), array, false);
    }
}
