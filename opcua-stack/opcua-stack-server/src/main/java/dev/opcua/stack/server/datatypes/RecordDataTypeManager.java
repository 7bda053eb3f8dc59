package dev.opcua.stack.server.datatypes;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.generic.FieldEncoding;
import dev.opcua.stack.core.encoding.generic.GenericStructure;
import dev.opcua.stack.core.encoding.generic.GenericStructureCodec;
import dev.opcua.stack.core.encoding.generic.LayoutField;
import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.StructureType;
import dev.opcua.stack.core.types.structured.EnumDefinition;
import dev.opcua.stack.core.types.structured.EnumField;
import dev.opcua.stack.core.types.structured.StructureDefinition;
import dev.opcua.stack.core.types.structured.StructureField;
import dev.opcua.stack.server.addressspace.DataTypeNode;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodes.StructureCodecSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Structured DataTypes defined from Java records, and enumerated DataTypes from the Java enums
 * they use, in a namespace of their own (Part 3, 5.8.3 and 8.48; Part 5, 12; Part 6, 5.2.6).
 *
 * <p>Each record becomes a DataType below Structure with a StructureDefinition (one field per
 * component in declaration order; StructureWithOptionalFields when a component is {@code Optional}
 * or {@code @Nullable}) and its "Default Binary" encoding object; nested records become nested
 * structures, Java arrays and Lists array fields (ValueRank 1), enums Enumeration DataTypes with an
 * EnumDefinition and EnumStrings (their ordinals, which are 0..n-1). Values are encoded through the
 * generic structure codec ({@link GenericStructureCodec}), whose codecs the server picks up
 * ({@link StructureCodecSource}), so clients decode them from the DataTypeDefinition alone.
 *
 * <p>NodeIds are strings: the class's simple name for the DataType, {@code Name.DefaultBinary} for
 * its encoding, {@code Name.EnumStrings} for an enum's property. Before the server starts a type is
 * named by {@link #dataTypeId(Class)} (namespace URI form), which variables of other node managers
 * take as their DataType; {@link #toVariant} and {@link #fromVariant} convert values once it started.
 */
public final class RecordDataTypeManager extends NodeStoreNodeManager implements StructureCodecSource {

    private static final NodeId STRUCTURE = NodeId.ns0(NodeIds.Structure);
    private static final NodeId ENUMERATION = NodeId.ns0(NodeIds.Enumeration);
    private static final NodeId HAS_SUBTYPE = NodeId.ns0(NodeIds.HasSubtype);
    private static final NodeId HAS_ENCODING = NodeId.ns0(NodeIds.HasEncoding);
    private static final NodeId HAS_PROPERTY = NodeId.ns0(NodeIds.HasProperty);
    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);
    private static final NodeId DATA_TYPE_ENCODING_TYPE = NodeId.ns0(NodeIds.DataTypeEncodingType);
    private static final NodeId PROPERTY_TYPE = NodeId.ns0(NodeIds.PropertyType);
    private static final QualifiedName DEFAULT_BINARY = QualifiedName.of(0, "Default Binary");
    private static final QualifiedName ENUM_STRINGS = QualifiedName.of(0, "EnumStrings");
    private static final int READ = 1;

    private final String namespaceUri;
    private final Map<Class<?>, RecordMapping> records;
    private final List<Class<?>> enums;
    private final Function<Class<?>, RecordMapping> lookup;
    private volatile int namespaceIndex = -1;

    private RecordDataTypeManager(String namespaceUri, Map<Class<?>, RecordMapping> records, List<Class<?>> enums) {
        super(List.of(namespaceUri), new NodeStore(records.size() * 2 + enums.size() * 2), true);
        this.namespaceUri = namespaceUri;
        this.records = Map.copyOf(records);
        this.enums = List.copyOf(enums);
        this.lookup = this.records::get;
    }

    /** A builder of the DataTypes of namespace {@code namespaceUri}. */
    public static Builder builder(String namespaceUri) {
        return new Builder(namespaceUri);
    }

    public String namespaceUri() {
        return namespaceUri;
    }

    /** The records and enums this manager defines a DataType for. */
    public Set<Class<?>> types() {
        Set<Class<?>> types = new java.util.LinkedHashSet<>(records.keySet());
        types.addAll(enums);
        return types;
    }

    /**
     * The DataType of a record or enum, namespace URI form (known before the server starts).
     *
     * @throws IllegalArgumentException when this manager does not define it
     */
    public ExpandedNodeId dataTypeId(Class<?> type) {
        checkDefined(type);
        return ExpandedNodeId.of(NodeId.string(0, type.getSimpleName()), namespaceUri, 0);
    }

    /**
     * The DataType's NodeId with the server's namespace index.
     *
     * @throws IllegalStateException before the server started
     */
    public NodeId dataTypeNodeId(Class<?> type) {
        checkDefined(type);
        return NodeId.string(index(), type.getSimpleName());
    }

    /** The layout of a record's structure, once the server started. */
    public StructureLayout layout(Class<? extends Record> type) {
        checkDefined(type);
        return records.get(type).layout();
    }

    private void checkDefined(Class<?> type) {
        if (!records.containsKey(type) && !enums.contains(type)) {
            throw new IllegalArgumentException(type.getName() + " has no DataType in " + namespaceUri
                    + "; the types are " + types().stream().map(Class::getSimpleName).toList());
        }
    }

    private int index() {
        int ns = namespaceIndex;
        if (ns < 0) {
            throw new IllegalStateException("the DataTypes of " + namespaceUri + " get their NodeIds when the "
                    + "server starts");
        }
        return ns;
    }

    /**
     * A record as a Variant holding an ExtensionObject of its structure; null gives the null Variant.
     *
     * @throws IllegalArgumentException when the record's type has no DataType here or a value cannot be converted
     */
    public Variant toVariant(Record value) {
        if (value == null) {
            return Variant.NULL;
        }
        RecordMapping mapping = records.get(value.getClass());
        if (mapping == null) {
            checkDefined(value.getClass());
        }
        return Variant.of(ExtensionObject.of(mapping.toStructure(value, lookup)));
    }

    /**
     * A new record from a Variant holding an ExtensionObject of the record's structure; the null
     * Variant gives null.
     *
     * @throws UaException BadTypeMismatch when the value is no such structure, BadOutOfRange when a
     *     component has no Java value (an enum ordinal) or the record's constructor refuses it
     */
    public <R extends Record> R fromVariant(Variant value, Class<R> type) {
        checkDefined(type);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!(value.value() instanceof ExtensionObject extension) || value.isArray()) {
            throw new UaException(StatusCodes.BadTypeMismatch, "a " + type.getSimpleName()
                    + " is written as an ExtensionObject, not " + value.type());
        }
        UaStructure decoded = extension.decoded();
        if (!(decoded instanceof GenericStructure structure)) {
            throw new UaException(StatusCodes.BadTypeMismatch, "the ExtensionObject (encoding "
                    + extension.encodingId() + ") is no " + type.getSimpleName());
        }
        return type.cast(records.get(type).fromStructure(structure, lookup));
    }

    @Override
    public synchronized Collection<UaCodec<?>> codecs(NamespaceTable namespaces) {
        bind(namespaces);
        List<UaCodec<?>> codecs = new ArrayList<>(records.size());
        for (RecordMapping mapping : records.values()) {
            codecs.add(new GenericStructureCodec(mapping.layout()));
        }
        return codecs;
    }

    @Override
    public synchronized void startup(NamespaceTable namespaces) {
        bind(namespaces);
    }

    /** Gives every type its NodeIds, layout and nodes, once. */
    private void bind(NamespaceTable namespaces) {
        if (namespaceIndex >= 0) {
            return;
        }
        int ns = namespaces.indexOf(namespaceUri);
        if (ns < 0) {
            throw new IllegalStateException("namespace " + namespaceUri + " is not in the namespace table");
        }
        for (Class<?> type : enums) {
            addEnum(ns, type);
        }
        for (RecordMapping mapping : records.values()) {
            addStructure(ns, mapping);
        }
        namespaceIndex = ns;
    }

    private void addEnum(int ns, Class<?> type) {
        NodeId id = NodeId.string(ns, type.getSimpleName());
        NodeId strings = NodeId.string(ns, type.getSimpleName() + ".EnumStrings");
        Object[] constants = type.getEnumConstants();
        EnumField[] fields = new EnumField[constants.length];
        LocalizedText[] names = new LocalizedText[constants.length];
        for (int i = 0; i < constants.length; i++) {
            String name = ((Enum<?>) constants[i]).name();
            fields[i] = new EnumField(i, LocalizedText.of(name), LocalizedText.NULL, name);
            names[i] = LocalizedText.of(name);
        }
        DataTypeNode node = new DataTypeNode(id, QualifiedName.of(ns, type.getSimpleName()),
                LocalizedText.of(type.getSimpleName()), null, 0, 0, false, ExtensionObject.of(new EnumDefinition(fields)));
        node.addReferences(new UaReference[] {UaReference.inverse(HAS_SUBTYPE, ENUMERATION),
                UaReference.forward(HAS_PROPERTY, strings)});
        VariableNode property = new VariableNode(strings, ENUM_STRINGS, LocalizedText.of("EnumStrings"), null, 0, 0,
                DataValue.of(Variant.ofArray(BuiltinType.LocalizedText, names)),
                new ValueAttributes(BuiltinType.LocalizedText.dataTypeId(), 1, new long[] {names.length}),
                (short) READ, (short) READ, 0, false, READ);
        property.addReferences(new UaReference[] {UaReference.inverse(HAS_PROPERTY, id),
                UaReference.forward(HAS_TYPE_DEFINITION, PROPERTY_TYPE)});
        store().add(node);
        store().add(property);
    }

    private void addStructure(int ns, RecordMapping mapping) {
        NodeId id = NodeId.string(ns, mapping.name());
        NodeId encoding = NodeId.string(ns, mapping.name() + ".DefaultBinary");
        StructureType kind = mapping.hasOptionalFields() ? StructureType.StructureWithOptionalFields
                : StructureType.Structure;
        List<LayoutField> layoutFields = new ArrayList<>();
        StructureField[] fields = new StructureField[mapping.components.size()];
        for (int i = 0; i < fields.length; i++) {
            ComponentMapping component = mapping.components.get(i);
            NodeId dataType;
            FieldEncoding fieldEncoding;
            switch (component.kind) {
                case ENUM -> {
                    dataType = NodeId.string(ns, component.element.getSimpleName());
                    fieldEncoding = new FieldEncoding.Enumeration(dataType);
                }
                case RECORD -> {
                    dataType = NodeId.string(ns, component.element.getSimpleName());
                    fieldEncoding = new FieldEncoding.Structured(dataType,
                            NodeId.string(ns, component.element.getSimpleName() + ".DefaultBinary"));
                }
                default -> {
                    dataType = component.builtin.dataTypeId();
                    fieldEncoding = new FieldEncoding.Builtin(component.builtin);
                }
            }
            fields[i] = new StructureField(component.name, LocalizedText.NULL, dataType, component.array() ? 1 : -1,
                    component.array() ? new long[] {0} : null, 0, component.optional);
            layoutFields.add(new LayoutField(component.name, fieldEncoding, component.array(), component.optional));
        }
        mapping.bind(new StructureLayout(id, encoding, kind, mapping.name(), layoutFields));
        DataTypeNode node = new DataTypeNode(id, QualifiedName.of(ns, mapping.name()), LocalizedText.of(mapping.name()),
                null, 0, 0, false, ExtensionObject.of(new StructureDefinition(encoding, STRUCTURE, kind, fields)));
        node.addReferences(new UaReference[] {UaReference.inverse(HAS_SUBTYPE, STRUCTURE),
                UaReference.forward(HAS_ENCODING, encoding)});
        ObjectNode binary = new ObjectNode(encoding, DEFAULT_BINARY, LocalizedText.of("Default Binary"), null, 0, 0,
                (short) 0);
        binary.addReferences(new UaReference[] {UaReference.inverse(HAS_ENCODING, id),
                UaReference.forward(HAS_TYPE_DEFINITION, DATA_TYPE_ENCODING_TYPE)});
        store().add(node);
        store().add(binary);
    }

    @Override
    public String toString() {
        return "RecordDataTypeManager[" + namespaceUri + ", " + types().stream().map(Class::getSimpleName).toList()
                + "]";
    }

    /** Collects the records; each brings the records and enums its components use. */
    public static final class Builder {
        private final String namespaceUri;
        private final Map<Class<?>, RecordMapping> records = new LinkedHashMap<>();
        private final List<Class<?>> enums = new ArrayList<>();
        private final Map<String, Class<?>> names = new LinkedHashMap<>();

        private Builder(String namespaceUri) {
            if (namespaceUri == null || namespaceUri.isBlank()) {
                throw new IllegalArgumentException("namespaceUri must not be blank");
            }
            this.namespaceUri = namespaceUri;
        }

        /**
         * Defines the DataType of a record, and of the records and enums its components use.
         *
         * @throws IllegalArgumentException naming the record and the component when a component's type is
         *     not supported, or two types have the same simple name (their NodeIds would clash)
         */
        public Builder record(Class<? extends Record> type) {
            Objects.requireNonNull(type, "type");
            add(type);
            return this;
        }

        private void add(Class<?> type) {
            if (records.containsKey(type) || enums.contains(type)) {
                return;
            }
            Class<?> taken = names.putIfAbsent(type.getSimpleName(), type);
            if (taken != null) {
                throw new IllegalArgumentException(type.getName() + " and " + taken.getName() + " have the same name "
                        + type.getSimpleName() + "; DataTypes of one namespace need different names");
            }
            if (type.isEnum()) {
                enums.add(type);
                return;
            }
            RecordMapping mapping = RecordMapping.of(type);
            records.put(type, mapping);
            for (ComponentMapping component : mapping.components) {
                if (component.kind != ComponentMapping.Kind.BUILTIN) {
                    add(component.element);
                }
            }
        }

        public RecordDataTypeManager build() {
            return new RecordDataTypeManager(namespaceUri, records, enums);
        }
    }
}
