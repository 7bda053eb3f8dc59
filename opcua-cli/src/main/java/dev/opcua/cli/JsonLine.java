package dev.opcua.cli;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.json.JsonEncoder;
import dev.opcua.stack.core.encoding.json.JsonEncoding;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.List;

/**
 * One JSON object of {@code --json} output: plain members (strings, numbers) and values in the UA JSON encoding
 * (Part 6, 5.4), verbose form, node ids with their namespace URI ({@code nsu=}) when the namespace table knows it.
 * A value is written as its JSON body (a number, a string, an array, an object for a structure) beside a
 * {@code type} member naming its built-in type, which is what scripts want to read.
 */
public final class JsonLine {

    private final JsonEncoder encoder;

    /** @param namespaceUris the server's namespace table, or null */
    public JsonLine(List<String> namespaceUris) {
        encoder = new JsonEncoder(CodecRegistry.standard(), JsonEncoding.VERBOSE, namespaceUris);
        encoder.beginObject();
    }

    public JsonLine string(String name, String value) {
        encoder.writeString(name, value);
        return this;
    }

    /** A JSON number (UA JSON writes Int64 as a string, so a value beyond Int32 goes as a Double). */
    public JsonLine number(String name, long value) {
        if (value == (int) value) {
            encoder.writeInt32(name, (int) value);
        } else {
            encoder.writeDouble(name, value);
        }
        return this;
    }

    public JsonLine bool(String name, boolean value) {
        encoder.writeBoolean(name, value);
        return this;
    }

    public JsonLine nodeId(String name, NodeId value) {
        encoder.writeNodeId(name, value);
        return this;
    }

    public JsonLine time(String name, DateTime value) {
        if (value != null && !value.isNull()) {
            encoder.writeDateTime(name, value);
        }
        return this;
    }

    /** The status as {@code name} (its symbol) and {@code name + "Code"} (its number). */
    public JsonLine status(String name, StatusCode status) {
        encoder.writeString(name, status.name());
        encoder.writeUInt32(name + "Code", status.unsignedValue());
        return this;
    }

    /** The value's body as {@code name}, its built-in type as {@code name + "Type"}; JSON null for a null value. */
    public JsonLine value(String name, Variant value) {
        if (value == null || value.isNull() || value.value() == null) {
            encoder.writeString(name, null);
            return this;
        }
        if (value.type() == BuiltinType.Variant && !value.isArray()) {
            return value(name, (Variant) value.value());
        }
        encoder.writeField(name, value.type(), value.value(), value.isArray());
        encoder.writeString(name + "Type", value.type().name());
        return this;
    }

    /** A DataValue as {@code value}, {@code valueType}, {@code status}, {@code statusCode} and its timestamps. */
    public JsonLine dataValue(DataValue value) {
        value(value.value());
        status("status", value.statusCode());
        time("sourceTimestamp", value.sourceTimestamp());
        time("serverTimestamp", value.serverTimestamp());
        return this;
    }

    private JsonLine value(Variant value) {
        return value("value", value);
    }

    /** Starts an array member; elements are written with {@link #element(Variant)}. */
    public JsonLine beginArray(String name) {
        encoder.beginArray(name);
        return this;
    }

    public JsonLine endArray() {
        encoder.endArray();
        return this;
    }

    /** One element of an open array: a value's body. */
    public JsonLine element(Variant value) {
        if (value == null || value.isNull() || value.value() == null) {
            encoder.writeString(null, null);
        } else if (value.type() == BuiltinType.Variant && !value.isArray()) {
            element((Variant) value.value());
        } else {
            encoder.writeField(null, value.type(), value.value(), value.isArray());
        }
        return this;
    }

    /** The element of an open array as a string. */
    public JsonLine element(String value) {
        encoder.writeString(null, value);
        return this;
    }

    public String toJson() {
        encoder.endObject();
        return encoder.toJson();
    }
}
