package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.encoding.generic.FieldEncoding;
import dev.opcua.stack.core.encoding.generic.GenericStructure;
import dev.opcua.stack.core.encoding.generic.GenericStructureCodec;
import dev.opcua.stack.core.encoding.generic.LayoutField;
import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.StructureType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.function.Function;

/**
 * Reads the XML encoding of a structure (Part 6, 5.3.6: one element per field, named as the field;
 * a union's SwitchField; absent optional fields left out) with its {@link StructureLayout}, and
 * turns it into the generated class when the standard codecs know its encoding.
 */
final class StructureXmlReader {

    /** No limits but the nesting depth: the values are the server's own, not a peer's. */
    static final EncodingLimits LIMITS =
            new EncodingLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, 100);

    private final XmlValueReader values;
    /** The layout of a structure by its binary encoding id, or null. */
    private final Function<NodeId, StructureLayout> layouts;

    StructureXmlReader(XmlValueReader values, Function<NodeId, StructureLayout> layouts) {
        this.values = values;
        this.layouts = layouts;
    }

    /** The structure in {@code body}: a generated class when one exists, else a GenericStructure. */
    UaStructure read(StructureLayout layout, XmlNode body) {
        return toRegistered(readGeneric(layout, body));
    }

    private GenericStructure readGeneric(StructureLayout layout, XmlNode body) {
        GenericStructure.Builder builder = GenericStructure.builder(layout);
        List<LayoutField> fields = layout.fields();
        if (layout.kind() == StructureType.Union) {
            String switchField = body.childText("SwitchField");
            int chosen = switchField == null ? -1 : Integer.parseInt(switchField.trim()) - 1;
            if (chosen >= fields.size()) {
                throw XmlValueReader.unsupported("line " + body.line() + ": SwitchField " + switchField
                        + " of " + layout.name() + " names no field", null);
            }
            if (chosen >= 0) {
                XmlNode element = body.child(fields.get(chosen).name());
                builder.set(chosen, element == null ? null : field(fields.get(chosen), element));
            }
            return builder.build();
        }
        for (int i = 0; i < fields.size(); i++) {
            LayoutField field = fields.get(i);
            XmlNode element = body.child(field.name());
            if (element != null) {
                builder.set(i, field(field, element));
            } else if (!field.optional() && field.encoding() instanceof FieldEncoding.Structured) {
                throw XmlValueReader.unsupported("line " + body.line() + ": " + layout.name() + " lacks its field "
                        + field.name(), null);
            }
        }
        return builder.build();
    }

    private Object field(LayoutField field, XmlNode element) {
        FieldEncoding encoding = field.encoding();
        if (encoding instanceof FieldEncoding.Builtin builtin) {
            return field.array() ? values.array(builtin.type(), element.children())
                    : values.scalar(builtin.type(), element);
        }
        if (encoding instanceof FieldEncoding.Enumeration) {
            if (!field.array()) {
                return enumValue(element);
            }
            int[] array = new int[element.children().size()];
            for (int i = 0; i < array.length; i++) {
                array[i] = enumValue(element.children().get(i));
            }
            return array;
        }
        NodeId encodingId = ((FieldEncoding.Structured) encoding).binaryEncodingId();
        StructureLayout nested = layouts.apply(encodingId);
        if (nested == null) {
            throw XmlValueReader.unsupported("line " + element.line() + ": field " + field.name()
                    + " is a structure (encoding " + encodingId + ") whose layout is unknown", null);
        }
        if (!field.array()) {
            return read(nested, element);
        }
        UaStructure[] array = new UaStructure[element.children().size()];
        for (int i = 0; i < array.length; i++) {
            array[i] = read(nested, element.children().get(i));
        }
        return array;
    }

    /** An enumeration in XML is "Name_Value" (Part 6, 5.3.4); a bare number is accepted too. */
    private static int enumValue(XmlNode element) {
        String text = element.text().trim();
        int underscore = text.lastIndexOf('_');
        try {
            return Integer.parseInt(underscore < 0 ? text : text.substring(underscore + 1));
        } catch (NumberFormatException e) {
            throw XmlValueReader.unsupported("line " + element.line() + ": '" + text
                    + "' is not an enumeration value (Name_Value)", e);
        }
    }

    /**
     * The generated class for a structure whose encoding the standard codecs know: the generic value
     * is written in UA Binary and read back with the generated codec, so both agree by construction.
     */
    static UaStructure toRegistered(GenericStructure structure) {
        UaCodec<?> codec = CodecRegistry.standard().codecForEncodingId(structure.binaryEncodingId());
        if (codec == null || codec instanceof GenericStructureCodec) {
            return structure;
        }
        ByteBuf buf = Unpooled.buffer();
        try {
            new GenericStructureCodec(structure.layout()).encode(new UaEncoder(CodecRegistry.standard(), buf), structure);
            return (UaStructure) codec.decode(new UaDecoder(CodecRegistry.standard(), LIMITS, buf));
        } finally {
            buf.release();
        }
    }
}
