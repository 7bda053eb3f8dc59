package dev.opcua.stack.server.namespace0;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.DataTypeNode;
import dev.opcua.stack.server.addressspace.MethodNode;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.ObjectTypeNode;
import dev.opcua.stack.server.addressspace.ReferenceTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.addressspace.VariableTypeNode;
import dev.opcua.stack.server.addressspace.ViewNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Loads namespace 0, the standard address space (Part 5), from the resource {@code ns0.bin} next to
 * this class into a {@link NodeStore}.
 *
 * <p>The resource is written by opcua-stack-codegen ({@code emit.Namespace0Writer}, whose Javadoc
 * has the grammar) from Opc.Ua.NodeSet2.xml. Version 1, in short: a 12-byte header ({@code "UANS"},
 * UInt16 version, UInt16 reserved, Int32 uncompressed body length), then one zlib stream holding a
 * string table (browse names, texts, locale ids; 0 stands for null), the NodeIds of all nodes, the
 * nodes with their attributes (values as UA Binary Variants), and per node its references as the
 * nodeset lists them, targets and reference types given as indexes into the NodeIds where they can
 * be. Integers that index or count are unsigned LEB128 varints.
 *
 * <p>Each reference is added to the node that lists it and, reversed, to its target, so every
 * reference can be browsed from both ends; a reference the nodeset lists from both ends is held once
 * on each. The load makes one pass over the inflated bytes; strings are decoded once each, and equal
 * browse names and texts without a locale share one object.
 */
public final class Namespace0Loader {

    /** The resource name, relative to this class. */
    public static final String RESOURCE = "ns0.bin";

    private static final byte[] MAGIC = {'U', 'A', 'N', 'S'};
    private static final int VERSION = 1;
    private static final int HEADER_LENGTH = 12;

    private static final int FLAG_DESCRIPTION = 0x01;
    private static final int FLAG_WRITE_MASK = 0x02;
    private static final int FLAG_USER_WRITE_MASK = 0x04;
    private static final int FLAG_VALUE = 0x08;

    /** The resource is ours, not a peer's: no limits beyond what Java arrays allow (the type dictionaries are large). */
    private static final EncodingLimits LIMITS =
            new EncodingLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, 100);

    private Namespace0Loader() {
    }

    /**
     * Reads the resource from the classpath and builds the nodes of namespace 0.
     *
     * @throws IllegalStateException when the resource is missing, of another version, or corrupt
     */
    public static NodeStore load() {
        byte[] file;
        try (InputStream in = Namespace0Loader.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " of " + Namespace0Loader.class.getPackageName()
                        + " is not on the classpath");
            }
            file = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("reading resource " + RESOURCE + " failed", e);
        }
        return load(file);
    }

    /** Builds the nodes from the bytes of a resource. */
    static NodeStore load(byte[] file) {
        byte[] body = inflate(file);
        ByteBuf buf = Unpooled.wrappedBuffer(body);
        try {
            return new BodyReader(body, buf).read();
        } catch (IndexOutOfBoundsException | UaEncodingException | IllegalArgumentException | IllegalStateException e) {
            throw new IllegalStateException("namespace 0 resource is corrupt at byte " + buf.readerIndex()
                    + " of its body: " + e.getMessage(), e);
        } finally {
            buf.release();
        }
    }

    private static byte[] inflate(byte[] file) {
        if (file.length < HEADER_LENGTH || file[0] != MAGIC[0] || file[1] != MAGIC[1] || file[2] != MAGIC[2]
                || file[3] != MAGIC[3]) {
            throw new IllegalStateException("namespace 0 resource does not start with \"UANS\"");
        }
        int version = (file[4] & 0xFF) | (file[5] & 0xFF) << 8;
        if (version != VERSION) {
            throw new IllegalStateException("namespace 0 resource has format version " + version + ", this loader reads "
                    + VERSION + ": regenerate it with opcua-stack-codegen");
        }
        int bodyLength = (file[8] & 0xFF) | (file[9] & 0xFF) << 8 | (file[10] & 0xFF) << 16 | (file[11] & 0xFF) << 24;
        if (bodyLength < 0) {
            throw new IllegalStateException("namespace 0 resource has a negative body length");
        }
        byte[] body = new byte[bodyLength];
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(file, HEADER_LENGTH, file.length - HEADER_LENGTH);
            int n = inflater.inflate(body);
            if (n != bodyLength || !inflater.finished()) {
                throw new IllegalStateException("namespace 0 resource body is not the " + bodyLength
                        + " bytes its header says");
            }
        } catch (DataFormatException e) {
            throw new IllegalStateException("namespace 0 resource body is corrupt: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
        return body;
    }

    /** One pass over the inflated body. */
    private static final class BodyReader {

        private final byte[] body;
        private final ByteBuf buf;
        private final UaDecoder decoder;
        private String[] strings;
        /** Namespace 0 browse names by string index, made on first use. */
        private QualifiedName[] names;
        /** Texts without a locale by string index, made on first use. */
        private LocalizedText[] texts;
        private NodeId[] ids;
        private ExpandedNodeId[] expandedIds;

        BodyReader(byte[] body, ByteBuf buf) {
            this.body = body;
            this.buf = buf;
            this.decoder = new UaDecoder(CodecRegistry.standard(), LIMITS, buf);
        }

        NodeStore read() {
            readStrings();
            int count = varint();
            if (count >= EdgeSet.MAX_NODES) {
                throw new IllegalStateException(count + " nodes: this loader indexes at most " + EdgeSet.MAX_NODES);
            }
            ids = new NodeId[count];
            expandedIds = new ExpandedNodeId[count];
            for (int i = 0; i < count; i++) {
                ids[i] = decoder.readNodeId("NodeId");
            }
            UaNode[] nodes = new UaNode[count];
            NodeStore store = new NodeStore(count);
            for (int i = 0; i < count; i++) {
                nodes[i] = readNode(ids[i]);
                store.add(nodes[i]);
            }
            readReferences(nodes);
            if (buf.isReadable()) {
                throw new IllegalStateException(buf.readableBytes() + " bytes left after the references");
            }
            return store;
        }

        private void readStrings() {
            int count = varint();
            strings = new String[count + 1];
            names = new QualifiedName[count + 1];
            texts = new LocalizedText[count + 1];
            for (int i = 1; i <= count; i++) {
                int length = varint();
                int start = buf.readerIndex();
                buf.skipBytes(length);
                strings[i] = new String(body, start, length, StandardCharsets.UTF_8);
            }
        }

        private UaNode readNode(NodeId nodeId) {
            int nodeClass = buf.readUnsignedByte();
            QualifiedName browseName = qualifiedName(varint(), varint());
            LocalizedText displayName = text();
            int flags = buf.readUnsignedByte();
            LocalizedText description = (flags & FLAG_DESCRIPTION) != 0 ? text() : null;
            long writeMask = (flags & FLAG_WRITE_MASK) != 0 ? buf.readUnsignedIntLE() : 0;
            long userWriteMask = (flags & FLAG_USER_WRITE_MASK) != 0 ? buf.readUnsignedIntLE() : 0;
            switch (nodeClass) {
                case 1:
                    return new ObjectNode(nodeId, browseName, displayName, description, writeMask, userWriteMask,
                            buf.readUnsignedByte());
                case 2: {
                    ValueAttributes valueAttributes = valueAttributes();
                    long accessLevel = buf.readUnsignedIntLE();
                    long userAccessLevel = buf.readUnsignedIntLE();
                    double minimumSamplingInterval = buf.readDoubleLE();
                    boolean historizing = buf.readBoolean();
                    DataValue value = (flags & FLAG_VALUE) != 0 ? DataValue.of(decoder.readVariant("Value")) : null;
                    // The nodeset's AccessLevel is the UInt32 AccessLevelEx; the Byte attribute is its low 8 bits.
                    return new VariableNode(nodeId, browseName, displayName, description, writeMask, userWriteMask,
                            value, valueAttributes, (short) (accessLevel & 0xFF), (short) (userAccessLevel & 0xFF),
                            minimumSamplingInterval, historizing, accessLevel);
                }
                case 4: {
                    int bits = buf.readUnsignedByte();
                    return new MethodNode(nodeId, browseName, displayName, description, writeMask, userWriteMask,
                            (bits & 0x01) != 0, (bits & 0x02) != 0);
                }
                case 8:
                    return new ObjectTypeNode(nodeId, browseName, displayName, description, writeMask, userWriteMask,
                            buf.readBoolean());
                case 16: {
                    boolean isAbstract = buf.readBoolean();
                    ValueAttributes valueAttributes = valueAttributes();
                    Variant value = (flags & FLAG_VALUE) != 0 ? decoder.readVariant("Value") : null;
                    return new VariableTypeNode(nodeId, browseName, displayName, description, writeMask, userWriteMask,
                            isAbstract, value, valueAttributes);
                }
                case 32: {
                    int bits = buf.readUnsignedByte();
                    return new ReferenceTypeNode(nodeId, browseName, displayName, description, writeMask,
                            userWriteMask, (bits & 0x01) != 0, (bits & 0x02) != 0, text());
                }
                case 64:
                    return new DataTypeNode(nodeId, browseName, displayName, description, writeMask, userWriteMask,
                            buf.readBoolean(), null);
                case 128: {
                    boolean containsNoLoops = (buf.readUnsignedByte() & 0x01) != 0;
                    return new ViewNode(nodeId, browseName, displayName, description, writeMask, userWriteMask,
                            containsNoLoops, buf.readUnsignedByte());
                }
                default:
                    throw new IllegalStateException("node " + nodeId + " has node class " + nodeClass);
            }
        }

        private ValueAttributes valueAttributes() {
            NodeId dataType = nodeRef(varint());
            int valueRank = buf.readIntLE();
            int dimensions = varint() - 1;
            long[] arrayDimensions = null;
            if (dimensions >= 0) {
                arrayDimensions = new long[dimensions];
                for (int i = 0; i < dimensions; i++) {
                    arrayDimensions[i] = varlong();
                }
            }
            return new ValueAttributes(dataType, valueRank, arrayDimensions);
        }

        /**
         * Reads the references section, then gives each node the references it lists and the reverse
         * of those that point at it. A reference the nodeset lists from both ends (a forward one on the
         * source and an inverse one on the target) is kept once; so are duplicates.
         */
        private void readReferences(UaNode[] nodes) {
            int n = nodes.length;
            ListedReferences listed = new ListedReferences(n * 4);
            for (int holder = 0; holder < n; holder++) {
                int count = varint();
                for (int r = 0; r < count; r++) {
                    int typeAndDirection = varint();
                    int typeRef = typeAndDirection >>> 1;
                    NodeId type = nodeRef(typeRef);
                    int target = varint();
                    ExpandedNodeId external = target == 0 ? decoder.readExpandedNodeId("Target") : null;
                    listed.add(holder, typeRef, type, (typeAndDirection & 1) != 0, target - 1, external);
                }
            }

            // Decide which to keep and count what each node will hold, so every array is made once.
            EdgeSet seen = new EdgeSet(listed.size);
            boolean[] keep = new boolean[listed.size];
            int[] degree = new int[n];
            for (int r = 0; r < listed.size; r++) {
                int holder = listed.holders[r];
                int target = listed.targets[r];
                int typeRef = listed.typeRefs[r];
                if (target >= 0 && typeRef != 0) {
                    long key = listed.forward[r] ? EdgeSet.key(holder, typeRef, target)
                            : EdgeSet.key(target, typeRef, holder);
                    if (!seen.add(key)) {
                        continue;
                    }
                }
                keep[r] = true;
                degree[holder]++;
                if (target >= 0) {
                    degree[target]++;
                }
            }

            UaReference[][] held = new UaReference[n][];
            for (int i = 0; i < n; i++) {
                held[i] = new UaReference[degree[i]];
            }
            int[] filled = new int[n];
            for (int r = 0; r < listed.size; r++) {
                if (!keep[r]) {
                    continue;
                }
                int holder = listed.holders[r];
                int target = listed.targets[r];
                NodeId type = listed.types[r];
                boolean forward = listed.forward[r];
                if (target < 0) {
                    held[holder][filled[holder]++] = new UaReference(type, listed.externals[r], forward);
                } else {
                    held[holder][filled[holder]++] = new UaReference(type, expandedId(target), forward);
                    held[target][filled[target]++] = new UaReference(type, expandedId(holder), !forward);
                }
            }
            for (int i = 0; i < n; i++) {
                install(nodes[i], held[i]);
            }
        }

        /** Gives a node its references, in one step. */
        private static void install(UaNode node, UaReference[] references) {
            node.addReferences(references);
        }

        private ExpandedNodeId expandedId(int index) {
            ExpandedNodeId id = expandedIds[index];
            if (id == null) {
                id = ExpandedNodeId.of(ids[index]);
                expandedIds[index] = id;
            }
            return id;
        }

        private NodeId nodeRef(int ref) {
            return ref == 0 ? decoder.readNodeId("NodeId") : ids[ref - 1];
        }

        private QualifiedName qualifiedName(int namespaceIndex, int ref) {
            if (namespaceIndex != 0) {
                return QualifiedName.of(namespaceIndex, strings[ref]);
            }
            QualifiedName name = names[ref];
            if (name == null) {
                name = QualifiedName.of(0, strings[ref]);
                names[ref] = name;
            }
            return name;
        }

        /** A LocalizedText, or null when both parts are absent. */
        private LocalizedText text() {
            int locale = varint();
            int text = varint();
            if (locale != 0) {
                return LocalizedText.of(strings[locale], strings[text]);
            }
            if (text == 0) {
                return null;
            }
            LocalizedText cached = texts[text];
            if (cached == null) {
                cached = LocalizedText.of(strings[text]);
                texts[text] = cached;
            }
            return cached;
        }

        private int varint() {
            long value = varlong();
            if (value > Integer.MAX_VALUE) {
                throw new IllegalStateException("count or index " + value + " is too large");
            }
            return (int) value;
        }

        private long varlong() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = buf.readByte();
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
            throw new IllegalStateException("varint longer than 10 bytes");
        }
    }

    /** The references section as listed, in parallel arrays (one entry per listed reference). */
    private static final class ListedReferences {

        int size;
        int[] holders;
        /** Index + 1 of the reference type among the ids; 0 when the type is not a node of the resource. */
        int[] typeRefs;
        NodeId[] types;
        boolean[] forward;
        /** Index of the target among the ids; -1 for a target outside the resource. */
        int[] targets;
        ExpandedNodeId[] externals;

        ListedReferences(int capacity) {
            holders = new int[capacity];
            typeRefs = new int[capacity];
            types = new NodeId[capacity];
            forward = new boolean[capacity];
            targets = new int[capacity];
            externals = new ExpandedNodeId[capacity];
        }

        void add(int holder, int typeRef, NodeId type, boolean isForward, int target, ExpandedNodeId external) {
            if (size == holders.length) {
                int capacity = Math.max(16, size * 2);
                holders = Arrays.copyOf(holders, capacity);
                typeRefs = Arrays.copyOf(typeRefs, capacity);
                types = Arrays.copyOf(types, capacity);
                forward = Arrays.copyOf(forward, capacity);
                targets = Arrays.copyOf(targets, capacity);
                externals = Arrays.copyOf(externals, capacity);
            }
            holders[size] = holder;
            typeRefs[size] = typeRef;
            types[size] = type;
            forward[size] = isForward;
            targets[size] = target;
            externals[size] = external;
            size++;
        }
    }
}
