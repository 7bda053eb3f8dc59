package dev.opcua.cli.nodeset;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import java.lang.reflect.Array;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Values in the XML encoding of Part 6, 5.3 (the {@code uax} namespace): the scalar built-in types, their arrays as
 * {@code ListOf<Type>}, and Argument structures (5.3.7, the InputArguments and OutputArguments of methods). Other
 * structures, matrices and Variants are not written here ({@link #canWrite} says so before anything is written).
 */
final class XmlValueWriter {

    private static final Set<BuiltinType> SIMPLE = EnumSet.of(BuiltinType.Boolean, BuiltinType.SByte, BuiltinType.Byte,
            BuiltinType.Int16, BuiltinType.UInt16, BuiltinType.Int32, BuiltinType.UInt32, BuiltinType.Int64,
            BuiltinType.UInt64, BuiltinType.Float, BuiltinType.Double, BuiltinType.String, BuiltinType.DateTime,
            BuiltinType.Guid, BuiltinType.ByteString, BuiltinType.NodeId, BuiltinType.QualifiedName,
            BuiltinType.LocalizedText);

    private final XMLStreamWriter xml;
    private final DocumentNamespaces namespaces;

    XmlValueWriter(XMLStreamWriter xml, DocumentNamespaces namespaces) {
        this.xml = xml;
        this.namespaces = namespaces;
    }

    boolean canWrite(Variant value) {
        if (value.isMatrix()) {
            return false;
        }
        if (value.type() == BuiltinType.ExtensionObject) {
            Object v = value.value();
            Object[] elements = v instanceof ExtensionObject[] array ? array : new Object[] {v};
            for (Object e : elements) {
                if (!(e instanceof ExtensionObject eo && eo.isDecoded() && eo.decoded() instanceof Argument)) {
                    return false;
                }
            }
            return true;
        }
        return SIMPLE.contains(value.type());
    }

    void write(Variant value) throws XMLStreamException {
        String type = value.type().name();
        if (value.isArray()) {
            xml.writeStartElement("uax", "ListOf" + type, NodeSetXmlWriter.TYPES_NS);
            for (int i = 0; i < Array.getLength(value.value()); i++) {
                scalar(type, value.type(), Array.get(value.value(), i));
            }
            xml.writeEndElement();
        } else {
            scalar(type, value.type(), value.value());
        }
    }

    private void scalar(String element, BuiltinType type, Object value) throws XMLStreamException {
        start(element);
        switch (type) {
            case DateTime -> xml.writeCharacters(((DateTime) value).toInstant().toString());
            case Guid -> text("String", value.toString());
            case ByteString -> xml.writeCharacters(Base64.getEncoder().encodeToString(((ByteString) value).bytes()));
            case NodeId -> text("Identifier", namespaces.text((NodeId) value));
            case QualifiedName -> {
                QualifiedName name = (QualifiedName) value;
                text("NamespaceIndex", String.valueOf(namespaces.index(name.namespaceIndex())));
                text("Name", name.name());
            }
            case LocalizedText -> {
                LocalizedText text = (LocalizedText) value;
                if (text.locale() != null) {
                    text("Locale", text.locale());
                }
                text("Text", text.text() == null ? "" : text.text());
            }
            case ExtensionObject -> argument(((ExtensionObject) value).decoded(Argument.class));
            default -> xml.writeCharacters(String.valueOf(value instanceof UUID ? value.toString() : value));
        }
        xml.writeEndElement();
    }

    /** An Argument in an ExtensionObject: TypeId (its XML encoding) and Body (Part 6, 5.3.7). */
    private void argument(Argument argument) throws XMLStreamException {
        start("TypeId");
        text("Identifier", "i=" + NodeIds.Argument_Encoding_DefaultXml);
        xml.writeEndElement();
        start("Body");
        start("Argument");
        text("Name", argument.name());
        start("DataType");
        text("Identifier", namespaces.text(argument.dataType()));
        xml.writeEndElement();
        text("ValueRank", String.valueOf(argument.valueRank()));
        start("ArrayDimensions");
        for (long d : argument.arrayDimensions() == null ? new long[0] : argument.arrayDimensions()) {
            text("UInt32", String.valueOf(d));
        }
        xml.writeEndElement();
        start("Description");
        if (argument.description() != null && argument.description().text() != null) {
            if (argument.description().locale() != null) {
                text("Locale", argument.description().locale());
            }
            text("Text", argument.description().text());
        }
        xml.writeEndElement();
        xml.writeEndElement();
        xml.writeEndElement();
    }

    private void start(String element) throws XMLStreamException {
        xml.writeStartElement("uax", element, NodeSetXmlWriter.TYPES_NS);
    }

    private void text(String element, String text) throws XMLStreamException {
        start(element);
        xml.writeCharacters(text == null ? "" : text);
        xml.writeEndElement();
    }
}
