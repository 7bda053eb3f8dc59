package dev.opcua.stack.server.history.events;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;

/**
 * An event as a store keeps it: every field the event carries, so that any select or where clause a later
 * HistoryRead brings can be answered as a live event monitored item would have answered it (Part 11, 6.5.2.2).
 * The bytes are UA Binary (Part 6, 5.2): the EventType and the event's own node as NodeIds, then the number of
 * fields and, per field, its browse path (Int32 length, QualifiedNames) and its value as a Variant. Stateless and
 * thread-safe.
 */
public final class EventBytes {

    /** The rows are ours, not a peer's: limits only as wide as Java arrays allow. */
    private static final EncodingLimits LIMITS =
            new EncodingLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, 100);
    private static final FieldPath[] STANDARD = {FieldPath.EVENT_ID, FieldPath.SOURCE_NODE, FieldPath.SOURCE_NAME,
            FieldPath.TIME, FieldPath.RECEIVE_TIME, FieldPath.MESSAGE, FieldPath.SEVERITY};

    private final CodecRegistry registry;

    public EventBytes(CodecRegistry registry) {
        this.registry = registry;
    }

    public byte[] encode(UaEvent event) {
        ByteBuf buf = Unpooled.buffer(256);
        try {
            UaEncoder encoder = new UaEncoder(registry, buf);
            encoder.writeNodeId(null, event.eventType());
            encoder.writeNodeId(null, event.nodeId() == null ? NodeId.NULL : event.nodeId());
            List<FieldPath> paths = new ArrayList<>(List.of(STANDARD));
            paths.addAll(event.extraFields());
            encoder.writeInt32(null, paths.size());
            for (FieldPath path : paths) {
                encoder.writeInt32(null, path.length());
                for (int i = 0; i < path.length(); i++) {
                    encoder.writeQualifiedName(null, path.get(i));
                }
                encoder.writeVariant(null, event.field(path));
            }
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    /**
     * @throws IllegalArgumentException when the bytes are not an event this class wrote
     */
    public UaEvent decode(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            UaDecoder decoder = new UaDecoder(registry, LIMITS, buf);
            UaEvent.Builder builder = UaEvent.builder(decoder.readNodeId(null));
            NodeId own = decoder.readNodeId(null);
            builder.nodeId(own.isNull() ? null : own);
            int count = decoder.readInt32(null);
            for (int f = 0; f < count; f++) {
                QualifiedName[] names = new QualifiedName[decoder.readInt32(null)];
                for (int i = 0; i < names.length; i++) {
                    names[i] = decoder.readQualifiedName(null);
                }
                Variant value = decoder.readVariant(null);
                builder.field(FieldPath.of(names), value);
            }
            return builder.build();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("a stored event cannot be decoded: " + e.getMessage(), e);
        } finally {
            buf.release();
        }
    }
}
