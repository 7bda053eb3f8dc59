package dev.opcua.stack.codegen.emit;

import dev.opcua.stack.codegen.schema.NodeDef;
import dev.opcua.stack.codegen.schema.NodeSet;
import dev.opcua.stack.codegen.schema.ReferenceDef;
import dev.opcua.stack.codegen.schema.SchemaException;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;

/**
 * Writes the nodes of a {@link NodeSet} into the compact binary resource the server loads at start
 * ({@code dev.opcua.stack.server.namespace0.Namespace0Loader} reads it; the two must agree on this format).
 *
 * <h2>Format, version 1</h2>
 *
 * A 12-byte header, then the body compressed as one zlib stream (RFC 1950; Deflate level 9, no
 * dictionary, no timestamps: the output depends only on the input and the zlib implementation).
 * <pre>
 * header     := "UANS" (4 ASCII bytes), UInt16 version (1), UInt16 reserved (0), Int32 body length
 * body       := strings, ids, nodes, references
 * strings    := varint n, n * (varint utf8Length, UTF-8 bytes)      string table, in order of first use
 * str        := varint                                              0 = null, k = string k-1 of the table
 * text       := str locale, str text                                LocalizedText; both 0 = absent
 * ids        := varint m, m * NodeId                                the node ids, in nodeset order
 * nodeRef    := varint [NodeId]                                     k > 0: id k-1 of the ids;
 *                                                                   0: the NodeId follows
 * nodes      := m * node                                            in the order of the ids
 * node       := Byte nodeClass (NodeClass value), varint browseNameNamespace,
 *               str browseName, text displayName, Byte flags,
 *               [text description]       flags 0x01
 *               [UInt32 writeMask]       flags 0x02
 *               [UInt32 userWriteMask]   flags 0x04
 *               class part               (a variable or variable type: Variant value follows when flags 0x08)
 * Object        := Byte eventNotifier
 * Variable      := valueAttrs, UInt32 accessLevel, UInt32 userAccessLevel, Double minimumSamplingInterval,
 *                  Boolean historizing, [Variant value]
 * Method        := Byte bits (0x01 executable, 0x02 userExecutable)
 * ObjectType    := Boolean isAbstract
 * VariableType  := Boolean isAbstract, valueAttrs, [Variant value]
 * ReferenceType := Byte bits (0x01 isAbstract, 0x02 symmetric), text inverseName
 * DataType      := Boolean isAbstract
 * View          := Byte bits (0x01 containsNoLoops), Byte eventNotifier
 * valueAttrs := nodeRef dataType, Int32 valueRank, varint (arrayDimensions length + 1; 0 = null),
 *               varint per dimension
 * references := per node, in node order: varint count, count * reference
 * reference  := varint (typeRef &lt;&lt; 1 | forward), [NodeId type when typeRef is 0],
 *               varint targetRef (k > 0: id k-1; 0: an ExpandedNodeId follows)
 * </pre>
 * Fixed-size values, NodeId, ExpandedNodeId and Variant are UA Binary (Part 6, 5.2); a varint is an
 * unsigned LEB128 (7 bits a byte, low group first, high bit set on all bytes but the last).
 * References are stored as the nodeset lists them, each on the node that lists it: the loader adds
 * the reverse of each to its target.
 */
public final class Namespace0Writer {

    /** Path of the resource below a resource root. */
    public static final String RESOURCE_PATH = "dev/opcua/stack/server/namespace0/ns0.bin";

    static final byte[] MAGIC = {'U', 'A', 'N', 'S'};
    static final int VERSION = 1;
    static final int HEADER_LENGTH = 12;
    static final int COMPRESSION_LEVEL = Deflater.BEST_COMPRESSION;

    static final int FLAG_DESCRIPTION = 0x01;
    static final int FLAG_WRITE_MASK = 0x02;
    static final int FLAG_USER_WRITE_MASK = 0x04;
    static final int FLAG_VALUE = 0x08;

    /**
     * What was written.
     *
     * @param nodes nodes in the resource
     * @param references references as listed in the nodeset
     * @param values variable and variable type values
     * @param strings entries of the string table
     * @param bodyBytes uncompressed body size
     * @param fileBytes resource size
     * @param written false when the file held the same content already and was left as it was
     */
    public record Summary(int nodes, int references, int values, int strings, int bodyBytes, int fileBytes,
            boolean written) {
    }

    private Namespace0Writer() {
    }

    /**
     * Writes the resource below {@code resourcesRoot}, unless the file there holds the same content
     * already (the same header and uncompressed body): another zlib build may compress differently,
     * and an unchanged address space should not become a changed file.
     */
    public static Summary write(NodeSet nodeSet, Path resourcesRoot) throws IOException {
        Encoded encoded = encode(nodeSet);
        byte[] file = compress(encoded.body);
        Path path = resourcesRoot.resolve(RESOURCE_PATH);
        boolean written = true;
        if (Files.isRegularFile(path)) {
            byte[] existing = Files.readAllBytes(path);
            written = !sameContent(existing, file);
        }
        if (written) {
            Files.createDirectories(path.getParent());
            Files.write(path, file);
        }
        return new Summary(encoded.nodes, encoded.references, encoded.values, encoded.strings, encoded.body.length,
                written ? file.length : (int) Files.size(path), written);
    }

    /** The complete resource: header and compressed body. */
    public static byte[] render(NodeSet nodeSet) {
        return compress(encode(nodeSet).body);
    }

    /** Whether two resources hold the same header and uncompressed body. */
    public static boolean sameContent(byte[] a, byte[] b) {
        try {
            return Arrays.equals(content(a), content(b));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The header followed by the uncompressed body of a resource.
     *
     * @throws IllegalArgumentException when the bytes are not a resource of this format
     */
    public static byte[] content(byte[] file) {
        if (file.length < HEADER_LENGTH || !Arrays.equals(file, 0, 4, MAGIC, 0, 4)) {
            throw new IllegalArgumentException("not a namespace resource (magic)");
        }
        int bodyLength = (file[8] & 0xFF) | (file[9] & 0xFF) << 8 | (file[10] & 0xFF) << 16 | (file[11] & 0xFF) << 24;
        if (bodyLength < 0) {
            throw new IllegalArgumentException("negative body length " + bodyLength);
        }
        byte[] content = Arrays.copyOf(file, HEADER_LENGTH + bodyLength);
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(file, HEADER_LENGTH, file.length - HEADER_LENGTH);
            int n = inflater.inflate(content, HEADER_LENGTH, bodyLength);
            if (n != bodyLength || !inflater.finished()) {
                throw new IllegalArgumentException("body is not " + bodyLength + " bytes");
            }
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("corrupt body: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
        return content;
    }

    private static byte[] compress(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 4 + HEADER_LENGTH);
        out.write(MAGIC, 0, MAGIC.length);
        int length = body.length;
        byte[] header = {(byte) VERSION, (byte) (VERSION >>> 8), 0, 0,
            (byte) length, (byte) (length >>> 8), (byte) (length >>> 16), (byte) (length >>> 24)};
        out.write(header, 0, header.length);
        Deflater deflater = new Deflater(COMPRESSION_LEVEL);
        try (DeflaterOutputStream zip = new DeflaterOutputStream(out, deflater, 1 << 16)) {
            zip.write(body);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e);
        } finally {
            deflater.end();
        }
        return out.toByteArray();
    }

    /** The uncompressed body with its counts. */
    private record Encoded(byte[] body, int nodes, int references, int values, int strings) {
    }

    private static Encoded encode(NodeSet nodeSet) {
        List<NodeDef> nodes = nodeSet.nodes();
        Map<NodeId, Integer> indexes = new HashMap<>(nodes.size() * 2);
        for (int i = 0; i < nodes.size(); i++) {
            if (indexes.putIfAbsent(nodes.get(i).nodeId(), i) != null) {
                throw new SchemaException("node " + nodes.get(i).nodeId() + " is defined twice in the nodeset");
            }
        }
        StringTable strings = new StringTable();
        for (NodeDef node : nodes) {
            strings.add(node.browseName().name());
            strings.add(node.displayName());
            strings.add(node.description());
            strings.add(node.inverseName());
        }

        ByteBuf buf = Unpooled.buffer(1 << 20);
        try {
            BodyEncoder out = new BodyEncoder(buf, strings, indexes);
            out.varint(strings.size());
            for (String s : strings.entries()) {
                out.varint(ByteBufUtil.utf8Bytes(s));
                buf.writeCharSequence(s, StandardCharsets.UTF_8);
            }
            out.varint(nodes.size());
            for (NodeDef node : nodes) {
                out.encoder.writeNodeId("NodeId", node.nodeId());
            }
            int values = 0;
            for (NodeDef node : nodes) {
                values += out.node(node) ? 1 : 0;
            }
            int references = 0;
            for (NodeDef node : nodes) {
                out.varint(node.references().size());
                for (ReferenceDef reference : node.references()) {
                    out.reference(reference);
                    references++;
                }
            }
            return new Encoded(ByteBufUtil.getBytes(buf), nodes.size(), references, values, strings.size());
        } finally {
            buf.release();
        }
    }

    /** Strings by index in order of first use; index 0 stands for null. */
    private static final class StringTable {

        private final Map<String, Integer> indexes = new LinkedHashMap<>();

        void add(String s) {
            if (s != null) {
                indexes.putIfAbsent(s, indexes.size() + 1);
            }
        }

        void add(LocalizedText text) {
            if (text != null) {
                add(text.locale());
                add(text.text());
            }
        }

        int ref(String s) {
            return s == null ? 0 : indexes.get(s);
        }

        int size() {
            return indexes.size();
        }

        Iterable<String> entries() {
            return indexes.keySet();
        }
    }

    /** Writes the parts of the body into one buffer. */
    private static final class BodyEncoder {

        private final ByteBuf buf;
        private final UaEncoder encoder;
        private final StringTable strings;
        private final Map<NodeId, Integer> indexes;

        BodyEncoder(ByteBuf buf, StringTable strings, Map<NodeId, Integer> indexes) {
            this.buf = buf;
            this.encoder = new UaEncoder(CodecRegistry.standard(), buf);
            this.strings = strings;
            this.indexes = indexes;
        }

        /** Writes a node; returns whether it had a value. */
        boolean node(NodeDef node) {
            buf.writeByte(node.nodeClass().value());
            varint(node.browseName().namespaceIndex());
            varint(strings.ref(node.browseName().name()));
            text(node.displayName());
            boolean hasValue = node.value() != null;
            int flags = (node.description() != null ? FLAG_DESCRIPTION : 0)
                    | (node.writeMask() != 0 ? FLAG_WRITE_MASK : 0)
                    | (node.userWriteMask() != 0 ? FLAG_USER_WRITE_MASK : 0)
                    | (hasValue ? FLAG_VALUE : 0);
            buf.writeByte(flags);
            if (node.description() != null) {
                text(node.description());
            }
            if (node.writeMask() != 0) {
                encoder.writeUInt32("WriteMask", node.writeMask());
            }
            if (node.userWriteMask() != 0) {
                encoder.writeUInt32("UserWriteMask", node.userWriteMask());
            }
            switch (node.nodeClass()) {
                case Object -> buf.writeByte(node.eventNotifier());
                case Variable -> {
                    valueAttributes(node);
                    encoder.writeUInt32("AccessLevel", node.accessLevel());
                    encoder.writeUInt32("UserAccessLevel", node.userAccessLevel());
                    encoder.writeDouble("MinimumSamplingInterval", node.minimumSamplingInterval());
                    encoder.writeBoolean("Historizing", node.historizing());
                }
                case Method -> buf.writeByte((node.executable() ? 0x01 : 0) | (node.userExecutable() ? 0x02 : 0));
                case ObjectType, DataType -> encoder.writeBoolean("IsAbstract", node.isAbstract());
                case VariableType -> {
                    encoder.writeBoolean("IsAbstract", node.isAbstract());
                    valueAttributes(node);
                }
                case ReferenceType -> {
                    buf.writeByte((node.isAbstract() ? 0x01 : 0) | (node.symmetric() ? 0x02 : 0));
                    text(node.inverseName());
                }
                case View -> {
                    buf.writeByte(node.containsNoLoops() ? 0x01 : 0);
                    buf.writeByte(node.eventNotifier());
                }
                default -> throw new SchemaException("node " + node.nodeId() + " has no node class");
            }
            if (hasValue) {
                if (node.nodeClass() != NodeClass.Variable
                        && node.nodeClass() != NodeClass.VariableType) {
                    throw new SchemaException("node " + node.nodeId() + " is a " + node.nodeClass() + " with a value");
                }
                encoder.writeVariant("Value", node.value());
            }
            return hasValue;
        }

        private void valueAttributes(NodeDef node) {
            nodeRef(node.dataType());
            encoder.writeInt32("ValueRank", node.valueRank());
            long[] dimensions = node.arrayDimensions();
            varint(dimensions == null ? 0 : dimensions.length + 1L);
            if (dimensions != null) {
                for (long d : dimensions) {
                    varint(d);
                }
            }
        }

        void reference(ReferenceDef reference) {
            Integer type = indexes.get(reference.referenceTypeId());
            varint(((type == null ? 0L : type + 1L) << 1) | (reference.forward() ? 1 : 0));
            if (type == null) {
                encoder.writeNodeId("ReferenceType", reference.referenceTypeId());
            }
            ExpandedNodeId target = reference.targetId();
            Integer local = target.isLocal() && target.namespaceUri() == null ? indexes.get(target.nodeId()) : null;
            varint(local == null ? 0 : local + 1L);
            if (local == null) {
                encoder.writeExpandedNodeId("Target", target);
            }
        }

        private void nodeRef(NodeId nodeId) {
            Integer index = indexes.get(nodeId);
            varint(index == null ? 0 : index + 1L);
            if (index == null) {
                encoder.writeNodeId("NodeId", nodeId);
            }
        }

        private void text(LocalizedText text) {
            varint(text == null ? 0 : strings.ref(text.locale()));
            varint(text == null ? 0 : strings.ref(text.text()));
        }

        void varint(long value) {
            long v = value;
            while ((v & ~0x7FL) != 0) {
                buf.writeByte((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            buf.writeByte((int) v);
        }
    }
}
