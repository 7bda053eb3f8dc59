package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.encoding.generic.FieldEncoding;
import dev.opcua.stack.core.encoding.generic.GenericStructure;
import dev.opcua.stack.core.encoding.generic.GenericStructureCodec;
import dev.opcua.stack.core.encoding.generic.LayoutField;
import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.StructureType;
import dev.opcua.stack.core.types.structured.EnumDefinition;
import dev.opcua.stack.core.types.structured.EnumField;
import dev.opcua.stack.server.addressspace.DataTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes ExtensionObjects in the XML encoding (Part 6, 5.3.1.16): the TypeId is the DataType's
 * "Default XML" encoding, the Body the structure by its {@link StructureLayout} (Part 6, 5.3.6: one
 * element per field, named as the field; the EncodingMask of a structure with optional fields and the
 * absent ones left out; a union's SwitchField and its chosen field), the mirror image of
 * {@link StructureXmlReader}.
 *
 * <p>A generated class is first turned into a {@link GenericStructure} of its layout through UA
 * Binary, so that both agree by construction; a body kept as bytes is decoded with its layout; a body
 * kept as XML is written back as it came. A structure of namespace 0 is written in the built-in types'
 * schema, one of a model in the namespace {@code <model URI>Types.xsd} that NodeSet2 files use.
 */
final class StructureXmlWriter {

    private static final String TYPES = XmlValueWriter.TYPES;

    private final XmlValueWriter values;
    private final ExportScope scope;
    private CodecRegistry codecs;

    StructureXmlWriter(XmlValueWriter values, ExportScope scope) {
        this.values = values;
        this.scope = scope;
    }

    XmlNode extensionObject(String name, ExtensionObject value) {
        if (value.isNull()) {
            return XmlValueWriter.element(name);
        }
        if (value.bodyType() == ExtensionObject.BodyType.None) {
            return XmlValueWriter.element(name, typeId(value.encodingId()));
        }
        if (value.xmlBody() != null) {
            XmlNode body = XmlValueWriter.parseFragment(value.xmlBody().fragment());
            if (body == null) {
                throw XmlValueReader.unsupported("the XML body of an ExtensionObject of " + value.encodingId()
                        + " is not one well-formed element", null);
            }
            return XmlValueWriter.element(name, typeId(value.encodingId()),
                    XmlValueWriter.element(TYPES + "Body", body));
        }
        GenericStructure structure = value.isDecoded() ? generic(value.decoded()) : decode(value);
        NodeId xmlEncoding = scope.dataTypes().xmlEncoding(structure.typeId());
        return XmlValueWriter.element(name, typeId(xmlEncoding != null ? xmlEncoding : structure.binaryEncodingId()),
                XmlValueWriter.element(TYPES + "Body", body(structure)));
    }

    private XmlNode typeId(NodeId id) {
        return XmlValueWriter.element(TYPES + "TypeId", XmlValueWriter.text(TYPES + "Identifier", scope.nodeId(id)));
    }

    /** The body element: named as the DataType, its fields inside. */
    private XmlNode body(GenericStructure structure) {
        NodeId type = structure.typeId();
        UaNode typeNode = scope.find(type);
        String typeName = typeNode != null ? typeNode.browseName().name() : structure.layout().name();
        if (type.namespaceIndex() == 0) {
            return XmlValueWriter.element(TYPES + typeName, fields(structure, TYPES));
        }
        String uri = scope.uri(type.namespaceIndex());
        String namespace = uri + (uri.endsWith("/") ? "" : "/") + "Types.xsd";
        return new XmlNode(typeName, Map.of("xmlns", namespace), "", List.copyOf(fields(structure, "")), 0);
    }

    /** The field elements of a structure, each named {@code prefix + field name}. */
    private List<XmlNode> fields(GenericStructure structure, String prefix) {
        StructureLayout layout = structure.layout();
        List<LayoutField> fields = layout.fields();
        List<XmlNode> result = new ArrayList<>(fields.size() + 1);
        if (layout.kind() == StructureType.Union) {
            int chosen = structure.unionIndex();
            result.add(XmlValueWriter.text(prefix + "SwitchField", String.valueOf(chosen + 1)));
            if (chosen >= 0 && structure.get(chosen) != null) {
                LayoutField field = fields.get(chosen);
                result.add(field(prefix + field.name(), field, structure.get(chosen), prefix));
            }
            return result;
        }
        if (layout.kind() == StructureType.StructureWithOptionalFields) {
            long mask = 0;
            int bit = 0;
            for (int i = 0; i < fields.size(); i++) {
                if (fields.get(i).optional()) {
                    mask |= structure.isPresent(i) ? 1L << bit : 0;
                    bit++;
                }
            }
            result.add(XmlValueWriter.text(prefix + "EncodingMask", Long.toString(mask)));
        }
        for (int i = 0; i < fields.size(); i++) {
            Object value = structure.get(i);
            if (structure.isPresent(i) && value != null) {
                result.add(field(prefix + fields.get(i).name(), fields.get(i), value, prefix));
            }
        }
        return result;
    }

    private XmlNode field(String name, LayoutField field, Object value, String prefix) {
        FieldEncoding encoding = field.encoding();
        if (encoding instanceof FieldEncoding.Builtin builtin) {
            return field.array() ? XmlValueWriter.element(name, values.array(builtin.type(), value))
                    : values.scalar(name, builtin.type(), value);
        }
        if (encoding instanceof FieldEncoding.Enumeration enumeration) {
            if (!field.array()) {
                return XmlValueWriter.text(name, enumText(enumeration.dataType(), (Integer) value));
            }
            String itemName = TYPES + typeName(enumeration.dataType(), "Int32");
            List<XmlNode> items = new ArrayList<>();
            for (int v : (int[]) value) {
                items.add(XmlValueWriter.text(itemName, enumText(enumeration.dataType(), v)));
            }
            return XmlValueWriter.element(name, items);
        }
        if (!field.array()) {
            return XmlValueWriter.element(name, fields(generic((UaStructure) value), prefix));
        }
        FieldEncoding.Structured structured = (FieldEncoding.Structured) encoding;
        String itemName = prefix + typeName(structured.dataType(), "ExtensionObject");
        List<XmlNode> items = new ArrayList<>();
        for (UaStructure element : (UaStructure[]) value) {
            items.add(XmlValueWriter.element(itemName, fields(generic(element), prefix)));
        }
        return XmlValueWriter.element(name, items);
    }

    /** An enumeration value as "Name_Value" (Part 6, 5.3.4) when its EnumDefinition names it, else the number. */
    private String enumText(NodeId dataType, int value) {
        if (dataType != null && scope.find(dataType) instanceof DataTypeNode type
                && type.dataTypeDefinition() != null
                && type.dataTypeDefinition().decoded() instanceof EnumDefinition definition
                && definition.fields() != null) {
            for (EnumField f : definition.fields()) {
                if (f.value() == value && f.name() != null) {
                    return f.name() + "_" + value;
                }
            }
        }
        return Integer.toString(value);
    }

    private String typeName(NodeId dataType, String otherwise) {
        UaNode node = dataType == null ? null : scope.find(dataType);
        return node != null ? node.browseName().name() : otherwise;
    }

    /** The structure as a GenericStructure of its layout; a generated class goes through UA Binary. */
    private GenericStructure generic(UaStructure structure) {
        if (structure instanceof GenericStructure generic) {
            return generic;
        }
        StructureLayout layout = scope.layoutOfType(structure.typeId());
        @SuppressWarnings("unchecked")
        UaCodec<UaStructure> codec = (UaCodec<UaStructure>) CodecRegistry.standard()
                .codecForEncodingId(structure.binaryEncodingId());
        if (layout == null || codec == null) {
            throw XmlValueReader.unsupported("no field layout is known for structure "
                    + structure.getClass().getSimpleName() + " (" + structure.typeId() + ")", null);
        }
        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encode(new UaEncoder(CodecRegistry.standard(), buf), structure);
            return new GenericStructureCodec(layout).decode(new UaDecoder(CodecRegistry.standard(),
                    StructureXmlReader.LIMITS, buf));
        } finally {
            buf.release();
        }
    }

    /** A binary body this server kept as bytes, decoded with the layout of its encoding. */
    private GenericStructure decode(ExtensionObject value) {
        StructureLayout layout = scope.layoutOfEncoding(value.encodingId());
        if (layout == null || value.rawBody() == null) {
            throw XmlValueReader.unsupported("the binary body of an ExtensionObject of " + value.encodingId()
                    + " has no known layout", null);
        }
        if (codecs == null) {
            CodecRegistry.Builder builder = CodecRegistry.standard().toBuilder();
            scope.registry().layouts().forEach(l -> builder.add(new GenericStructureCodec(l)));
            codecs = builder.build();
        }
        ByteBuf buf = Unpooled.wrappedBuffer(value.rawBody().bytes());
        try {
            return new GenericStructureCodec(layout).decode(new UaDecoder(codecs, StructureXmlReader.LIMITS, buf));
        } finally {
            buf.release();
        }
    }
}
