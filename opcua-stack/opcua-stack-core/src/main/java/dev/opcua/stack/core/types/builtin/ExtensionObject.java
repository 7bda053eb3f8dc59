package dev.opcua.stack.core.types.builtin;

import dev.opcua.stack.core.types.UaStructure;
import java.util.Objects;

/**
 * A structure carried with the NodeId of its encoding (Part 6, 5.2.2.15).
 *
 * <p>The body is one of: nothing; a decoded {@link UaStructure} (encoded with its DefaultBinary
 * encoding); the raw bytes of a binary body whose encoding is not known to the decoder, kept so that
 * the value can be passed on unchanged; or an XML body.
 */
public final class ExtensionObject {

    /** Body kinds and their encoding byte on the wire. */
    public enum BodyType {
        None(0x00),
        ByteString(0x01),
        XmlElement(0x02);

        private final int encodingByte;

        BodyType(int encodingByte) {
            this.encodingByte = encodingByte;
        }

        public int encodingByte() {
            return encodingByte;
        }
    }

    public static final ExtensionObject NULL = new ExtensionObject(NodeId.NULL, BodyType.None, null);

    private final NodeId encodingId;
    private final BodyType bodyType;
    private final Object body;

    private ExtensionObject(NodeId encodingId, BodyType bodyType, Object body) {
        this.encodingId = encodingId;
        this.bodyType = bodyType;
        this.body = body;
    }

    /** An ExtensionObject carrying a structure in its DefaultBinary encoding. */
    public static ExtensionObject of(UaStructure structure) {
        Objects.requireNonNull(structure, "structure");
        return new ExtensionObject(structure.binaryEncodingId(), BodyType.ByteString, structure);
    }

    /** An ExtensionObject with a binary body kept as bytes (an encoding this side does not know). */
    public static ExtensionObject ofBinary(NodeId encodingId, ByteString body) {
        return new ExtensionObject(Objects.requireNonNull(encodingId, "encodingId"), BodyType.ByteString,
                body == null ? ByteString.NULL : body);
    }

    /** An ExtensionObject with an XML body. */
    public static ExtensionObject ofXml(NodeId encodingId, XmlElement body) {
        return new ExtensionObject(Objects.requireNonNull(encodingId, "encodingId"), BodyType.XmlElement,
                body == null ? XmlElement.NULL : body);
    }

    /** An ExtensionObject with a type id and no body. */
    public static ExtensionObject ofEmpty(NodeId typeId) {
        return typeId == null || typeId.isNull() ? NULL : new ExtensionObject(typeId, BodyType.None, null);
    }

    /** NodeId of the body's encoding (the TypeId field on the wire). */
    public NodeId encodingId() {
        return encodingId;
    }

    public BodyType bodyType() {
        return bodyType;
    }

    public boolean isNull() {
        return bodyType == BodyType.None && encodingId.isNull();
    }

    /** Whether the body is a decoded structure. */
    public boolean isDecoded() {
        return body instanceof UaStructure;
    }

    /** The decoded structure, or null when the body is absent, raw or XML. */
    public UaStructure decoded() {
        return body instanceof UaStructure ? (UaStructure) body : null;
    }

    /** The decoded structure as the expected type; throws naming both types when it is another. */
    public <T extends UaStructure> T decoded(Class<T> type) {
        if (!type.isInstance(body)) {
            throw new IllegalStateException("ExtensionObject holds " + describeBody() + ", not " + type.getSimpleName());
        }
        return type.cast(body);
    }

    /** The raw binary body, or null when the body is decoded, XML or absent. */
    public ByteString rawBody() {
        return body instanceof ByteString ? (ByteString) body : null;
    }

    /** The XML body, or null. */
    public XmlElement xmlBody() {
        return body instanceof XmlElement ? (XmlElement) body : null;
    }

    private String describeBody() {
        if (body == null) {
            return "no body";
        }
        return body instanceof UaStructure ? body.getClass().getSimpleName() : bodyType + " body of " + encodingId;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ExtensionObject)) {
            return false;
        }
        ExtensionObject other = (ExtensionObject) o;
        return encodingId.equals(other.encodingId) && bodyType == other.bodyType && Objects.equals(body, other.body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(encodingId, bodyType, body);
    }

    @Override
    public String toString() {
        return "ExtensionObject{" + encodingId + ", " + (body instanceof UaStructure ? body : describeBody()) + "}";
    }
}
