package dev.opcua.stack.pubsub.server;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.PubSubState;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.PublishedVariableDataType;
import dev.opcua.stack.pubsub.config.DataSetReaderConfig;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedEvents;
import dev.opcua.stack.pubsub.config.PublishedField;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodeset.TypeInstantiator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The PubSub configuration of a {@link PubSubService} shown in a server's information model (Part 14, 9.1), so
 * that a client can browse what the server publishes and reads, see whether each part runs, and switch writer
 * groups and readers off and on without a product-specific tool.
 *
 * <p>Below the standard PublishSubscribe object of namespace 0 (Part 14, 9.1.3) it creates, in a namespace of
 * its own ({@code <ApplicationUri>:pubsub}, string NodeIds {@code Kind:path}):
 * <pre>
 * PublishSubscribe (i=14443)
 *   Status/State                       Operational
 *   SupportedTransportProfiles         the MQTT JSON and UADP profiles
 *   PublishedDataSets (i=17371)
 *     &lt;data set&gt;   PublishedDataItemsType: ConfigurationVersion, DataSetMetaData, PublishedData, DataSetToWriter
 *                  or PublishedEventsType: ..., EventNotifier, SelectedFields, Filter
 *   &lt;connection&gt;   PubSubConnectionType (HasPubSubConnection): PublisherId, TransportProfileUri, Address, Status
 *     &lt;group&gt;      WriterGroupType (HasWriterGroup): WriterGroupId, PublishingInterval, KeepAliveTime, Status+Enable/Disable
 *       &lt;writer&gt;   DataSetWriterType (HasDataSetWriter): DataSetWriterId, DataSetFieldContentMask, KeyFrameCount, Status
 *     Readers      ReaderGroupType (HasReaderGroup), one implicit group of the connection's readers, Status
 *       &lt;reader&gt;   DataSetReaderType (HasDataSetReader): PublisherId, WriterGroupId, DataSetWriterId,
 *                  DataSetMetaData, Status+Enable/Disable
 * </pre>
 * Each object is an instance of its standard type with its Mandatory children (Part 3, 6.4) made by
 * {@link OpcUaServer#instances()}; the configuration values are set once, the State variables are read from the
 * service when a client reads them ({@link PubSubStates}), and the Enable and Disable Methods of writer groups
 * and readers call {@link PubSubService#setEnabled} ({@link PubSubNodeManager}).
 *
 * <p>The model is read-only beyond Enable and Disable: the service cannot change its configuration while it
 * runs, so the optional configuration Methods (AddConnection, AddWriterGroup, AddDataSetWriter ...) and the
 * PubSubConfiguration file (Part 14, 9.1.3.7) are not offered, nor Diagnostics (Part 14, 9.1.11), security
 * groups or keys.
 */
public final class PubSubInformationModel {

    /** MQTT with the JSON message mapping (Part 14, 7.3.5.7.8, Table 206; Part 7 transport facet). */
    public static final String MQTT_JSON = "http://opcfoundation.org/UA-Profile/Transport/pubsub-mqtt-json";
    /** MQTT with the UADP message mapping (Part 14, 7.3.5.7.8, Table 206). */
    public static final String MQTT_UADP = "http://opcfoundation.org/UA-Profile/Transport/pubsub-mqtt-uadp";
    /** The BrowseName of the reader group made for each connection's readers, which the configuration lacks. */
    public static final String READER_GROUP = "Readers";

    static final NodeId PUBLISH_SUBSCRIBE = NodeId.ns0(NodeIds.PublishSubscribe);
    private static final NodeId PUBLISHED_DATA_SETS = NodeId.ns0(NodeIds.PublishSubscribe_PublishedDataSets);
    private static final NodeId HAS_COMPONENT = NodeId.ns0(NodeIds.HasComponent);
    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);
    private static final NodeId HAS_PUBSUB_CONNECTION = NodeId.ns0(NodeIds.HasPubSubConnection);
    private static final NodeId HAS_WRITER_GROUP = NodeId.ns0(NodeIds.HasWriterGroup);
    private static final NodeId HAS_READER_GROUP = NodeId.ns0(NodeIds.HasReaderGroup);
    private static final NodeId HAS_DATA_SET_WRITER = NodeId.ns0(NodeIds.HasDataSetWriter);
    private static final NodeId HAS_DATA_SET_READER = NodeId.ns0(NodeIds.HasDataSetReader);
    private static final NodeId DATA_SET_TO_WRITER = NodeId.ns0(NodeIds.DataSetToWriter);
    private static final NodeId NETWORK_ADDRESS_TYPE = NodeId.ns0(NodeIds.NetworkAddressType);
    private static final NodeId NETWORK_ADDRESS_URL_TYPE = NodeId.ns0(NodeIds.NetworkAddressUrlType);
    private static final NodeId BASE_DATA_VARIABLE_TYPE = NodeId.ns0(NodeIds.BaseDataVariableType);
    /** An empty KeyValuePair[] (Part 5, 12.21): no transport-specific properties. */
    private static final Variant NO_PROPERTIES = Variant.ofArray(BuiltinType.ExtensionObject, new ExtensionObject[0]);
    private static final Variant SECURITY_NONE = Variant.ofInt32(MessageSecurityMode.None.value());
    private static final short READ = 1;

    private final OpcUaServer server;
    private final PubSubService service;
    private final Map<String, String> brokerAddresses;
    private final String namespaceUri;
    private final NodeStore store = new NodeStore(256);
    private final PubSubNodeManager manager;
    private final PubSubStates states;
    private final int ns;
    private final DateTime built = DateTime.now();

    private PubSubInformationModel(OpcUaServer server, PubSubService service, Map<String, String> brokerAddresses) {
        this.server = server;
        this.service = service;
        this.brokerAddresses = Map.copyOf(brokerAddresses);
        this.namespaceUri = server.config().applicationUri() + ":pubsub";
        this.manager = new PubSubNodeManager(namespaceUri, store, service);
        this.states = new PubSubStates(service);
        server.nodeManagers().register(manager);
        this.ns = server.namespaces().indexOf(namespaceUri);
    }

    /** {@link #register(OpcUaServer, PubSubService, Map)} without broker addresses. */
    public static PubSubInformationModel register(OpcUaServer server, PubSubService service) {
        return register(server, service, Map.of());
    }

    /**
     * Shows the service's configuration in the server's information model; call it once per server, after
     * {@link OpcUaServer#start()} (the type instances need the started address space).
     *
     * @param brokerAddresses the broker URL of each connection by connection name (the Url of its Address,
     *        Part 14, 9.1.5.2 and 6.4.1.1 NetworkAddressUrlDataType); a connection without one keeps an Address
     *        object without Url, because the service does not know where its transport connects
     * @throws IllegalArgumentException when the server has a PubSub model already (its namespace is taken)
     * @throws IllegalStateException when the server's namespace 0 lacks the PubSub nodes of Part 14
     */
    public static PubSubInformationModel register(OpcUaServer server, PubSubService service,
            Map<String, String> brokerAddresses) {
        PubSubInformationModel model = new PubSubInformationModel(server, service, brokerAddresses);
        model.build();
        return model;
    }

    /** The URI of the namespace of the model's nodes. */
    public String namespaceUri() {
        return namespaceUri;
    }

    /** The index of the namespace of the model's nodes. */
    public int namespaceIndex() {
        return ns;
    }

    /** The object of a connection. */
    public NodeId connection(String connection) {
        return id("Connection", connection);
    }

    /** The object of a writer group. */
    public NodeId writerGroup(String connection, String group) {
        return id("WriterGroup", connection, group);
    }

    /** The object of a DataSetWriter. */
    public NodeId dataSetWriter(String connection, String group, String writer) {
        return id("DataSetWriter", connection, group, writer);
    }

    /** The implicit reader group of a connection's readers. */
    public NodeId readerGroup(String connection) {
        return id("ReaderGroup", connection);
    }

    /** The object of a DataSetReader. */
    public NodeId dataSetReader(String connection, String reader) {
        return id("DataSetReader", connection, reader);
    }

    /** The object of a published data set. */
    public NodeId publishedDataSet(String dataSet) {
        return id("PublishedDataSet", dataSet);
    }

    /**
     * A string NodeId {@code Kind:part/part}: the kind keeps a group named like a child ("Status") apart from
     * the child, and the escaping of '.', '/' and '%' keeps the children's ids ({@code id.BrowseName}, as
     * {@link TypeInstantiator} makes them) apart from the objects of other names.
     */
    private NodeId id(String kind, String... path) {
        StringBuilder id = new StringBuilder(kind).append(':');
        for (int i = 0; i < path.length; i++) {
            if (i > 0) {
                id.append('/');
            }
            id.append(path[i].replace("%", "%25").replace(".", "%2E").replace("/", "%2F"));
        }
        return NodeId.string(ns, id.toString());
    }

    private void build() {
        NodeStore ns0 = namespace0();
        publishSubscribe(ns0);
        Map<String, List<NodeId>> writersOfDataSet = new LinkedHashMap<>();
        for (PubSubConnectionConfig connection : service.connections()) {
            connection(connection, writersOfDataSet);
        }
        for (PublishedDataSet dataSet : service.dataSets().values()) {
            publishedDataSet(dataSet, writersOfDataSet.getOrDefault(dataSet.name(), List.of()));
        }
    }

    private NodeStore namespace0() {
        if (!(server.nodeManagers().managerOf(PUBLISH_SUBSCRIBE) instanceof NodeStoreNodeManager namespace0)
                || namespace0.store().get(PUBLISH_SUBSCRIBE) == null) {
            throw new IllegalStateException("namespace 0 of the server has no PublishSubscribe object (i=14443)");
        }
        return namespace0.store();
    }

    /** Part 14, 9.1.3.2: the root's State, and the transport profiles the service's transports offer. */
    private void publishSubscribe(NodeStore ns0) {
        live(ns0, NodeIds.PublishSubscribe_Status_State, () -> state(PubSubState.Operational));
        live(ns0, NodeIds.PublishSubscribe_SupportedTransportProfiles,
                () -> Variant.ofArray(BuiltinType.String, new String[] {MQTT_JSON, MQTT_UADP}));
    }

    /** Part 14, 9.1.5.2 PubSubConnectionType, with its groups and readers. */
    private void connection(PubSubConnectionConfig config, Map<String, List<NodeId>> writersOfDataSet) {
        String name = config.name();
        UaNode connection = instantiate(NodeIds.PubSubConnectionType, connection(name), name, PUBLISH_SUBSCRIBE,
                HAS_PUBSUB_CONNECTION, Set.of());
        set(connection, "PublisherId", publisherId(config.publisherId()));
        UaNode profile = set(connection, "TransportProfileUri", Variant.ofString(transportProfile(config)));
        set(profile, "Selections", Variant.ofArray(BuiltinType.String, new String[] {MQTT_JSON, MQTT_UADP}));
        set(connection, "ConnectionProperties", NO_PROPERTIES);
        address(connection, brokerAddresses.get(name));
        status(connection, () -> states.connection(name), null);

        for (WriterGroupConfig group : config.writerGroups()) {
            // Part 14, 9.1.6 WriterGroupType and 9.1.7.2 DataSetWriterType
            UaNode groupNode = instantiate(NodeIds.WriterGroupType, writerGroup(name, group.name()), group.name(),
                    connection.nodeId(), HAS_WRITER_GROUP, Set.of());
            groupProperties(groupNode);
            set(groupNode, "WriterGroupId", Variant.ofUInt16(group.id()));
            set(groupNode, "PublishingInterval", milliseconds(group.publishingInterval()));
            set(groupNode, "KeepAliveTime", milliseconds(group.keepAliveTime()));
            set(groupNode, "Priority", Variant.ofByte(0));
            set(groupNode, "LocaleIds", Variant.ofArray(BuiltinType.String, new String[0]));
            status(groupNode, () -> states.switchable(name, group.name()), group.name());
            for (DataSetWriterConfig writer : group.writers()) {
                UaNode writerNode = instantiate(NodeIds.DataSetWriterType,
                        dataSetWriter(name, group.name(), writer.name()), writer.name(), groupNode.nodeId(),
                        HAS_DATA_SET_WRITER, Set.of("KeyFrameCount"));
                set(writerNode, "DataSetWriterId", Variant.ofUInt16(writer.id()));
                set(writerNode, "DataSetFieldContentMask", Variant.ofUInt32(writer.fieldContentMask()));
                set(writerNode, "KeyFrameCount", Variant.ofUInt32(writer.keyFrameCount()));
                set(writerNode, "DataSetWriterProperties", NO_PROPERTIES);
                status(writerNode, () -> states.dataSetWriter(name, group.name()), null);
                writersOfDataSet.computeIfAbsent(writer.dataSet(), k -> new ArrayList<>()).add(writerNode.nodeId());
            }
        }

        if (!config.readers().isEmpty()) {
            // Part 14, 9.1.6.9 ReaderGroupType
            UaNode readers = instantiate(NodeIds.ReaderGroupType, readerGroup(name), READER_GROUP,
                    connection.nodeId(), HAS_READER_GROUP, Set.of());
            groupProperties(readers);
            status(readers, () -> states.connection(name), null);
            for (DataSetReaderConfig reader : config.readers()) {
                reader(name, readers, reader);
            }
        }
    }

    /** Part 14, 9.1.8.2 DataSetReaderType. */
    private void reader(String connection, UaNode group, DataSetReaderConfig config) {
        UaNode reader = instantiate(NodeIds.DataSetReaderType, dataSetReader(connection, config.name()),
                config.name(), group.nodeId(), HAS_DATA_SET_READER, Set.of());
        set(reader, "PublisherId", publisherId(config.publisherId()));
        set(reader, "WriterGroupId", Variant.ofUInt16(config.writerGroupId()));
        set(reader, "DataSetWriterId", Variant.ofUInt16(config.dataSetWriterId()));
        // null until the publisher's metadata arrives, when the reader takes it from the metadata topic
        set(reader, "DataSetMetaData", Variant.of(config.metaData()));
        set(reader, "DataSetFieldContentMask", Variant.ofUInt32(DataSetFieldContentMask.None));
        set(reader, "MessageReceiveTimeout", Variant.ofDouble(0));
        set(reader, "KeyFrameCount", Variant.ofUInt32(0));
        set(reader, "DataSetReaderProperties", NO_PROPERTIES);
        status(reader, () -> states.switchable(connection, config.name()), config.name());
    }

    /**
     * Part 14, 9.1.4 PublishedDataItemsType (PublishedDataSetType, 9.1.4.2.1, with PublishedData), or
     * PublishedEventsType for an events data set, linked to the writers that send it (DataSetToWriter).
     */
    private void publishedDataSet(PublishedDataSet dataSet, List<NodeId> writers) {
        UaNode node = instantiate(dataSet.isEvents() ? NodeIds.PublishedEventsType : NodeIds.PublishedDataItemsType,
                publishedDataSet(dataSet.name()), dataSet.name(), PUBLISHED_DATA_SETS, HAS_COMPONENT, Set.of());
        set(node, "ConfigurationVersion", Variant.of(dataSet.version()));
        set(node, "DataSetMetaData", Variant.of(dataSet.metaData()));
        if (dataSet.isEvents()) {
            publishedEvents(node, dataSet.events());
        } else {
            List<PublishedField> fields = dataSet.fields();
            ExtensionObject[] published = new ExtensionObject[fields.size()];
            for (int i = 0; i < published.length; i++) {
                NodeId source = fields.get(i).source();
                // a field the application supplies has no variable: the null NodeId (Part 14, 6.2.3.2.2 names none)
                published[i] = ExtensionObject.of(new PublishedVariableDataType(source == null ? NodeId.NULL : source,
                        AttributeIds.Value, 0, 0, 0, null, Variant.NULL, new QualifiedName[0]));
            }
            set(node, "PublishedData", Variant.ofArray(BuiltinType.ExtensionObject, published));
        }
        for (NodeId writer : writers) {
            node.addReference(UaReference.forward(DATA_SET_TO_WRITER, writer));
            store.get(writer).addReference(UaReference.inverse(DATA_SET_TO_WRITER, node.nodeId()));
        }
    }

    /**
     * Part 14, 9.1.4.4 PublishedEventsType: the notifier (EventNotifier), the SelectedFields and the Filter
     * (an empty ContentFilter when every event is published).
     */
    private void publishedEvents(UaNode node, PublishedEvents events) {
        set(node, "EventNotifier", Variant.of(events.notifier())); // the symbol is PubSubEventNotifier
        ExtensionObject[] selected = new ExtensionObject[events.selectedFields().size()];
        for (int i = 0; i < selected.length; i++) {
            selected[i] = ExtensionObject.of(events.selectedFields().get(i));
        }
        set(node, "SelectedFields", Variant.ofArray(BuiltinType.ExtensionObject, selected));
        ContentFilter filter = events.filter() != null ? events.filter()
                : new ContentFilter(new ContentFilterElement[0]);
        set(node, "Filter", Variant.of(ExtensionObject.of(filter)));
    }

    /** The Mandatory properties of PubSubGroupType (Part 14, 9.1.6.2): no message security, no size limit. */
    private void groupProperties(UaNode group) {
        set(group, "SecurityMode", SECURITY_NONE);
        set(group, "MaxNetworkMessageSize", Variant.ofUInt32(0));
        set(group, "GroupProperties", NO_PROPERTIES);
    }

    /**
     * The Status object (Part 14, 9.1.10): State read from the service; for a switchable element also the
     * Enable and Disable Methods of PubSubStatusType, referenced as the instance's own.
     */
    private void status(UaNode parent, Supplier<PubSubState> state, String switchable) {
        UaNode status = child(parent, "Status");
        UaNode stateVariable = child(status, "State");
        ((VariableNode) stateVariable).setValueSource(() -> DataValue.of(state(state.get()), StatusCode.GOOD,
                DateTime.now(), null));
        if (switchable != null) {
            status.addReference(UaReference.forward(HAS_COMPONENT, PubSubNodeManager.ENABLE));
            status.addReference(UaReference.forward(HAS_COMPONENT, PubSubNodeManager.DISABLE));
            manager.addSwitch(status.nodeId(), switchable);
        }
    }

    /**
     * The Address object (Part 14, 9.1.5.2): a NetworkAddressUrlType with the broker's Url when it is known,
     * else the NetworkAddressType the type declares; NetworkInterface empty (any interface, Part 14, 6.4.1.1).
     */
    private void address(UaNode connection, String url) {
        UaNode address = child(connection, "Address");
        UaNode networkInterface = set(address, "NetworkInterface", Variant.ofString(""));
        set(networkInterface, "Selections", Variant.ofArray(BuiltinType.String, new String[0]));
        if (url == null) {
            return;
        }
        address.removeReference(UaReference.forward(HAS_TYPE_DEFINITION, NETWORK_ADDRESS_TYPE));
        address.addReference(UaReference.forward(HAS_TYPE_DEFINITION, NETWORK_ADDRESS_URL_TYPE));
        NodeId urlId = NodeId.string(ns, address.nodeId().stringId() + ".Url");
        VariableNode urlNode = new VariableNode(urlId, QualifiedName.of(0, "Url"), null, null, 0, 0,
                DataValue.of(Variant.ofString(url), StatusCode.GOOD, built, null),
                ValueAttributes.scalar(NodeId.ns0(NodeIds.String)), READ, READ, 0, false, 0);
        urlNode.addReferences(new UaReference[] {UaReference.inverse(HAS_COMPONENT, address.nodeId()),
            UaReference.forward(HAS_TYPE_DEFINITION, BASE_DATA_VARIABLE_TYPE)});
        store.add(urlNode);
        address.addReference(UaReference.forward(HAS_COMPONENT, urlId));
    }

    /**
     * The profile of the connection's message mapping. Our connections may mix encodings across groups, which
     * one TransportProfileUri cannot say: then the first writer group's (or reader's) encoding names it.
     */
    private static String transportProfile(PubSubConnectionConfig config) {
        MessageEncoding encoding = !config.writerGroups().isEmpty() ? config.writerGroups().get(0).encoding()
                : !config.readers().isEmpty() ? config.readers().get(0).encoding() : MessageEncoding.JSON;
        return encoding == MessageEncoding.UADP ? MQTT_UADP : MQTT_JSON;
    }

    private UaNode instantiate(int type, NodeId id, String name, NodeId parent, NodeId reference,
            Set<String> optional) {
        return server.instances().instantiate(NodeId.ns0(type), id, QualifiedName.of(ns, name), parent, reference,
                optional);
    }

    /** The child of an instance by BrowseName, as the type made it. */
    private UaNode child(UaNode parent, String browseName) {
        for (UaReference reference : parent.references()) {
            if (reference.forward() && reference.targetId().isLocal()) {
                UaNode target = store.get(reference.targetId().nodeId());
                if (target != null && target.browseName().name().equals(browseName)) {
                    return target;
                }
            }
        }
        throw new IllegalStateException(parent.nodeId() + " has no child " + browseName
                + ": namespace 0 lacks the PubSub types of Part 14 (regenerate ns0.bin)");
    }

    /** Sets a configuration value once; returns the variable. */
    private UaNode set(UaNode parent, String browseName, Variant value) {
        UaNode child = child(parent, browseName);
        ((VariableNode) child).setValue(DataValue.of(value, StatusCode.GOOD, built, null));
        return child;
    }

    private static void live(NodeStore ns0, int id, Supplier<Variant> value) {
        if (!(ns0.get(NodeId.ns0(id)) instanceof VariableNode variable)) {
            throw new IllegalStateException("namespace 0 lacks variable i=" + id + ": regenerate ns0.bin");
        }
        variable.setValueSource(() -> DataValue.of(value.get(), StatusCode.GOOD, DateTime.now(), null));
    }

    /** An enumeration value is an Int32 on the wire (Part 6, 5.2.4). */
    private static Variant state(PubSubState state) {
        return Variant.ofInt32(state.value());
    }

    private static Variant publisherId(PublisherId id) {
        return Variant.ofScalar(id.type(), id.value());
    }

    /** A Duration (Part 3, 8.13): milliseconds as a Double. */
    private static Variant milliseconds(Duration duration) {
        return Variant.ofDouble(duration.toNanos() / 1_000_000.0);
    }
}
