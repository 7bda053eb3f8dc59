package dev.opcua.stack.server.services.nodemanagement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeAttributesMask;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.AddNodesItem;
import dev.opcua.stack.core.types.structured.AddNodesRequest;
import dev.opcua.stack.core.types.structured.AddNodesResult;
import dev.opcua.stack.core.types.structured.AddReferencesItem;
import dev.opcua.stack.core.types.structured.DeleteNodesItem;
import dev.opcua.stack.core.types.structured.DeleteReferencesItem;
import dev.opcua.stack.core.types.structured.ModelChangeStructureDataType;
import dev.opcua.stack.core.types.structured.ObjectAttributes;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.VariableAttributes;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.audit.AuditLog;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.namespace0.Namespace0NodeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodeset.ModelRegistry;
import dev.opcua.stack.server.nodeset.TypeInstantiator;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.WellKnownRole;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.services.view.ReferenceTypeTree;
import dev.opcua.stack.server.subscriptions.events.EventTypeTree;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import dev.opcua.stack.server.subscriptions.events.ModelChanges;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules of the NodeManagement services over an in-memory namespace, without sockets. */
class NodeManagementServicesTest {

    private static final String NS = "urn:test:nodemgmt";
    private static final String READ_ONLY = "urn:test:read-only";
    private static final long CONFIGURE_ADMIN = WellKnownRole.CONFIGURE_ADMIN.mask()
            | WellKnownRole.AUTHENTICATED_USER.mask();
    private static final long OPERATOR = WellKnownRole.OPERATOR.mask() | WellKnownRole.AUTHENTICATED_USER.mask();
    private static final NodeId ORGANIZES = NodeId.ns0(NodeIds.Organizes);
    private static final NodeId HAS_COMPONENT = NodeId.ns0(NodeIds.HasComponent);
    private static final NodeId OBJECTS = NodeId.ns0(NodeIds.ObjectsFolder);
    private static final long VARIABLE_MASK = NodeAttributesMask.DisplayName.value() | NodeAttributesMask.Value.value()
            | NodeAttributesMask.DataType.value() | NodeAttributesMask.ValueRank.value();

    private static NodeStore namespace0;
    private InMemoryNodeManager plant;
    private NodeStore readOnlyStore;
    private final List<UaEvent> events = new ArrayList<>();
    private NodeManagementServices services;
    private int ns;
    private NodeId line;

    @BeforeAll
    static void loadNamespace0() {
        namespace0 = Namespace0Loader.load();
    }

    @BeforeEach
    void setUp() {
        start(NodeManagementSettings.enabledForConfigureAdmin());
    }

    /** A fresh namespace with the folder Line, a read-only namespace, and the services with {@code settings}. */
    private void start(NodeManagementSettings settings) {
        events.clear();
        NodeManagers managers = new NodeManagers(new NamespaceTable("urn:test:server"));
        managers.register(new Namespace0NodeManager(namespace0));
        plant = InMemoryNodeManager.builder(NS).folder("Line").build();
        managers.register(plant);
        readOnlyStore = new NodeStore(4);
        NodeStoreNodeManager readOnly = new NodeStoreNodeManager(List.of(READ_ONLY), readOnlyStore);
        managers.register(readOnly);
        managers.startup();
        ns = plant.namespaceIndex();
        line = plant.nodeId("Line");
        int roNs = managers.namespaces().indexOf(READ_ONLY);
        readOnlyStore.add(new ObjectNode(NodeId.string(roNs, "Fixed"), QualifiedName.of(roNs, "Fixed"), null, null, 0, 0,
                (short) 0));
        ReferenceTypeTree referenceTypes = ReferenceTypeTree.of(namespace0);
        EditableNodes lookup = new EditableNodes(managers, () -> referenceTypes, Set.of());
        TypeInstantiator instances = new TypeInstantiator(lookup::find,
                id -> managers.managerOf(id) instanceof NodeStoreNodeManager m ? m.store() : null,
                type -> referenceTypes.matches(type, NodeId.ns0(NodeIds.Aggregates), true));
        ModelChanges modelChanges = new ModelChanges((notifier, event) -> events.add(event), EventTypeTree.of(namespace0));
        services = new NodeManagementServices(managers, RequestGuard.NONE, () -> referenceTypes, instances, modelChanges,
                new ModelRegistry(namespace0), settings, 3, AuditLog.disabled());
    }

    private AddNodesItem variable(String name, NodeId requested, Object value, NodeId dataType, NodeId typeDefinition) {
        VariableAttributes attributes = new VariableAttributes(VARIABLE_MASK, LocalizedText.of(name), null, 0, 0,
                Variant.of(value), dataType, -1, null, (short) 3, (short) 3, 0, false);
        return new AddNodesItem(ExpandedNodeId.of(line), HAS_COMPONENT,
                requested == null ? ExpandedNodeId.NULL : ExpandedNodeId.of(requested), QualifiedName.of(ns, name),
                NodeClass.Variable, ExtensionObject.of(attributes),
                typeDefinition == null ? ExpandedNodeId.NULL : ExpandedNodeId.of(typeDefinition));
    }

    private AddNodesItem setpoint() {
        return variable("Setpoint", null, 42.0, NodeId.ns0(NodeIds.Double), null);
    }

    private AddNodesResult addOne(long roles, AddNodesItem item) {
        return services.addNodes(roles, new AddNodesItem[] {item})[0];
    }

    private static long status(AddNodesResult result) {
        return result.statusCode().value() & 0xFFFF_FFFFL;
    }

    private static long code(int status) {
        return status & 0xFFFF_FFFFL;
    }

    private UaNode node(NodeId id) {
        return plant.store().get(id);
    }

    @Test
    void configure_admin_adds_a_variable_below_a_folder_with_its_value_and_a_model_change_event() {
        AddNodesResult result = addOne(CONFIGURE_ADMIN, setpoint());

        assertThat(result.statusCode().isGood()).isTrue();
        assertThat(result.addedNodeId()).isEqualTo(NodeId.string(ns, "Line.Setpoint"));
        VariableNode added = (VariableNode) node(result.addedNodeId());
        assertThat(added.value().value().value()).isEqualTo(42.0);
        assertThat(added.valueAttributes().dataType()).isEqualTo(NodeId.ns0(NodeIds.Double));
        assertThat(node(line).referenceList()).contains(UaReference.forward(HAS_COMPONENT, result.addedNodeId()));
        assertThat(added.referenceList()).contains(UaReference.forward(NodeId.ns0(NodeIds.HasTypeDefinition),
                NodeId.ns0(NodeIds.BaseDataVariableType)));
        assertThat(events).hasSize(1);
        Object[] changes = (Object[]) events.get(0).field(FieldPath.of("Changes")).value();
        List<ModelChangeStructureDataType> decoded = Arrays.stream(changes)
                .map(c -> ((ExtensionObject) c).decoded(ModelChangeStructureDataType.class)).toList();
        assertThat(decoded).extracting(ModelChangeStructureDataType::affected)
                .containsExactly(result.addedNodeId(), line);
        assertThat(decoded.get(0).verb()).isEqualTo((short) (ModelChanges.NODE_ADDED | ModelChanges.REFERENCE_ADDED));
        assertThat(decoded.get(0).affectedType()).isEqualTo(NodeId.ns0(NodeIds.BaseDataVariableType));
        assertThat(decoded.get(1).verb()).isEqualTo(ModelChanges.REFERENCE_ADDED);
    }

    @Test
    void a_variable_of_a_type_gets_the_mandatory_children_of_the_type_in_its_namespace() {
        AddNodesResult result = addOne(CONFIGURE_ADMIN,
                variable("Level", null, 1.5, NodeId.ns0(NodeIds.Double), NodeId.ns0(NodeIds.AnalogItemType)));

        assertThat(result.statusCode().isGood()).isTrue();
        UaNode range = node(NodeId.string(ns, "Line.Level.EURange"));
        assertThat(range).isNotNull();
        assertThat(range.browseName().name()).isEqualTo("EURange");
    }

    @Test
    void an_object_of_a_type_gets_its_mandatory_children_and_deleting_it_removes_them() {
        AddNodesItem item = new AddNodesItem(ExpandedNodeId.of(line), ORGANIZES, ExpandedNodeId.NULL,
                QualifiedName.of(ns, "Meta"), NodeClass.Object,
                ExtensionObject.of(new ObjectAttributes(0, null, null, 0, 0, (short) 0)),
                ExpandedNodeId.of(NodeId.ns0(NodeIds.NamespaceMetadataType)));
        NodeId meta = addOne(CONFIGURE_ADMIN, item).addedNodeId();
        NodeId uri = NodeId.string(ns, "Line.Meta.NamespaceUri");
        assertThat(node(uri)).isNotNull();

        StatusCode[] deleted = services.deleteNodes(CONFIGURE_ADMIN, new DeleteNodesItem[] {new DeleteNodesItem(meta, true)});

        assertThat(deleted[0].isGood()).isTrue();
        assertThat(node(meta)).isNull();
        assertThat(node(uri)).isNull();
        assertThat(node(line).referenceList()).doesNotContain(UaReference.forward(ORGANIZES, meta));
    }

    @Test
    void a_requested_node_id_in_use_is_bad_node_id_exists_and_a_malformed_one_bad_node_id_rejected() {
        assertThat(status(addOne(CONFIGURE_ADMIN, variable("A", line, 1.0, NodeId.ns0(NodeIds.Double), null))))
                .isEqualTo(code(StatusCodes.BadNodeIdExists));
        assertThat(status(addOne(CONFIGURE_ADMIN, variable("B", NodeId.string(ns, " "), 1.0,
                NodeId.ns0(NodeIds.Double), null)))).isEqualTo(code(StatusCodes.BadNodeIdRejected));
        AddNodesItem unknownNamespace = new AddNodesItem(ExpandedNodeId.of(line), HAS_COMPONENT,
                ExpandedNodeId.of(NodeId.string(0, "X"), "urn:nobody", 0), QualifiedName.of(ns, "C"),
                NodeClass.Object, ExtensionObject.NULL, ExpandedNodeId.NULL);
        assertThat(status(addOne(CONFIGURE_ADMIN, unknownNamespace))).isEqualTo(code(StatusCodes.BadNodeIdRejected));
    }

    @Test
    void an_unknown_parent_is_bad_parent_node_id_invalid() {
        AddNodesItem item = new AddNodesItem(ExpandedNodeId.of(NodeId.string(ns, "Nowhere")), ORGANIZES,
                ExpandedNodeId.NULL, QualifiedName.of(ns, "X"), NodeClass.Object, ExtensionObject.NULL,
                ExpandedNodeId.NULL);
        assertThat(status(addOne(CONFIGURE_ADMIN, item))).isEqualTo(code(StatusCodes.BadParentNodeIdInvalid));
    }

    @Test
    void an_unknown_reference_type_is_invalid_and_a_non_hierarchical_one_not_allowed() {
        AddNodesItem unknown = new AddNodesItem(ExpandedNodeId.of(line), NodeId.string(ns, "NoSuchReference"),
                ExpandedNodeId.NULL, QualifiedName.of(ns, "X"), NodeClass.Object, ExtensionObject.NULL,
                ExpandedNodeId.NULL);
        AddNodesItem nonHierarchical = new AddNodesItem(ExpandedNodeId.of(line), NodeId.ns0(NodeIds.HasTypeDefinition),
                ExpandedNodeId.NULL, QualifiedName.of(ns, "X"), NodeClass.Object, ExtensionObject.NULL,
                ExpandedNodeId.NULL);
        assertThat(status(addOne(CONFIGURE_ADMIN, unknown))).isEqualTo(code(StatusCodes.BadReferenceTypeIdInvalid));
        assertThat(status(addOne(CONFIGURE_ADMIN, nonHierarchical))).isEqualTo(code(StatusCodes.BadReferenceNotAllowed));
    }

    @Test
    void a_browse_name_a_child_of_the_parent_has_is_bad_browse_name_duplicated() {
        addOne(CONFIGURE_ADMIN, setpoint());
        assertThat(status(addOne(CONFIGURE_ADMIN, variable("Setpoint", NodeId.string(ns, "Other"), 1.0,
                NodeId.ns0(NodeIds.Double), null)))).isEqualTo(code(StatusCodes.BadBrowseNameDuplicated));
    }

    @Test
    void a_method_is_bad_node_class_invalid_and_attributes_of_another_class_bad_node_attributes_invalid() {
        AddNodesItem method = new AddNodesItem(ExpandedNodeId.of(line), HAS_COMPONENT, ExpandedNodeId.NULL,
                QualifiedName.of(ns, "Start"), NodeClass.Method, ExtensionObject.NULL, ExpandedNodeId.NULL);
        AddNodesItem wrongAttributes = new AddNodesItem(ExpandedNodeId.of(line), HAS_COMPONENT, ExpandedNodeId.NULL,
                QualifiedName.of(ns, "Speed"), NodeClass.Variable,
                ExtensionObject.of(new ObjectAttributes(0, null, null, 0, 0, (short) 0)), ExpandedNodeId.NULL);
        assertThat(status(addOne(CONFIGURE_ADMIN, method))).isEqualTo(code(StatusCodes.BadNodeClassInvalid));
        assertThat(status(addOne(CONFIGURE_ADMIN, wrongAttributes))).isEqualTo(code(StatusCodes.BadNodeAttributesInvalid));
    }

    @Test
    void a_type_definition_of_the_wrong_class_or_abstract_is_bad_type_definition_invalid() {
        assertThat(status(addOne(CONFIGURE_ADMIN, variable("A", null, 1.0, NodeId.ns0(NodeIds.Double),
                NodeId.ns0(NodeIds.FolderType))))).isEqualTo(code(StatusCodes.BadTypeDefinitionInvalid));
        assertThat(status(addOne(CONFIGURE_ADMIN, variable("B", null, 1.0, NodeId.ns0(NodeIds.Double),
                NodeId.ns0(NodeIds.BaseVariableType))))).isEqualTo(code(StatusCodes.BadTypeDefinitionInvalid));
    }

    @Test
    void a_data_type_outside_the_variable_types_or_a_value_of_another_type_is_bad_node_attributes_invalid() {
        assertThat(status(addOne(CONFIGURE_ADMIN, variable("Name", null, "text", NodeId.ns0(NodeIds.String),
                NodeId.ns0(NodeIds.AnalogItemType))))).isEqualTo(code(StatusCodes.BadNodeAttributesInvalid));
        assertThat(status(addOne(CONFIGURE_ADMIN, variable("Count", null, "not a number", NodeId.ns0(NodeIds.Int32),
                null)))).isEqualTo(code(StatusCodes.BadNodeAttributesInvalid));
        assertThat(NewNodeAttributes.rankAllowed(-3, 1)).isTrue();
        assertThat(NewNodeAttributes.rankAllowed(-1, 1)).isFalse();
    }

    @Test
    void namespace_0_refuses_changes_with_bad_user_access_denied_and_a_read_only_manager_with_bad_not_supported() {
        StatusCode[] deleted = services.deleteNodes(CONFIGURE_ADMIN, new DeleteNodesItem[] {
            new DeleteNodesItem(OBJECTS, true),
            new DeleteNodesItem(NodeId.string(readOnlyStore.nodes().iterator().next().nodeId().namespaceIndex(),
                    "Fixed"), true)});
        assertThat(deleted).extracting(s -> s.value() & 0xFFFF_FFFFL)
                .containsExactly(code(StatusCodes.BadUserAccessDenied), code(StatusCodes.BadNotSupported));
        AddNodesItem inNamespace0 = new AddNodesItem(ExpandedNodeId.of(OBJECTS), ORGANIZES,
                ExpandedNodeId.of(NodeId.ns0(99_999)), QualifiedName.of(0, "Mine"), NodeClass.Object,
                ExtensionObject.NULL, ExpandedNodeId.NULL);
        assertThat(status(addOne(CONFIGURE_ADMIN, inNamespace0))).isEqualTo(code(StatusCodes.BadUserAccessDenied));
        assertThat(namespace0.get(OBJECTS)).isNotNull();
    }

    @Test
    void a_node_of_the_namespace_may_be_added_below_the_objects_folder() {
        AddNodesItem item = new AddNodesItem(ExpandedNodeId.of(OBJECTS), ORGANIZES,
                ExpandedNodeId.of(NodeId.string(0, "Cell"), NS, 0), QualifiedName.of(ns, "Cell"), NodeClass.Object,
                ExtensionObject.NULL, ExpandedNodeId.NULL);
        AddNodesResult result = addOne(CONFIGURE_ADMIN, item);
        assertThat(result.addedNodeId()).isEqualTo(NodeId.string(ns, "Cell"));

        services.deleteNodes(CONFIGURE_ADMIN, new DeleteNodesItem[] {new DeleteNodesItem(result.addedNodeId(), true)});

        assertThat(namespace0.get(OBJECTS).referenceList()).doesNotContain(UaReference.forward(ORGANIZES,
                result.addedNodeId()));
    }

    @Test
    void a_session_without_the_roles_or_without_the_permission_is_bad_user_access_denied() {
        assertThat(status(addOne(OPERATOR, setpoint()))).isEqualTo(code(StatusCodes.BadUserAccessDenied));
        plant.store().setPermissions(node(line), NodePermissions.builder()
                .grant(WellKnownRole.CONFIGURE_ADMIN, Permission.BROWSE, Permission.READ).build());
        assertThat(status(addOne(CONFIGURE_ADMIN, setpoint()))).isEqualTo(code(StatusCodes.BadUserAccessDenied));
        assertThat(services.deleteNodes(CONFIGURE_ADMIN, new DeleteNodesItem[] {new DeleteNodesItem(line, true)})[0]
                .value()).isEqualTo(StatusCodes.BadUserAccessDenied);
        assertThat(node(line)).isNotNull();
        assertThat(events).isEmpty();
    }

    @Test
    void delete_without_target_references_leaves_the_parents_reference_unresolved() {
        NodeId setpoint = addOne(CONFIGURE_ADMIN, setpoint()).addedNodeId();

        services.deleteNodes(CONFIGURE_ADMIN, new DeleteNodesItem[] {new DeleteNodesItem(setpoint, false)});

        assertThat(node(setpoint)).isNull();
        assertThat(node(line).referenceList()).contains(UaReference.forward(HAS_COMPONENT, setpoint));
        assertThat(services.deleteNodes(CONFIGURE_ADMIN, new DeleteNodesItem[] {new DeleteNodesItem(setpoint, true)})[0]
                .value()).isEqualTo(StatusCodes.BadNodeIdUnknown);
    }

    @Test
    void references_are_added_at_both_ends_and_deleted_one_way_or_both() {
        NodeId setpoint = addOne(CONFIGURE_ADMIN, setpoint()).addedNodeId();
        NodeId hasProperty = NodeId.ns0(NodeIds.HasProperty);
        NodeId generates = NodeId.ns0(NodeIds.GeneratesEvent);
        AddReferencesItem add = new AddReferencesItem(line, generates, true, null, ExpandedNodeId.of(setpoint),
                NodeClass.Variable);

        StatusCode[] added = services.addReferences(CONFIGURE_ADMIN, new AddReferencesItem[] {add, add,
            new AddReferencesItem(line, generates, true, null, ExpandedNodeId.of(line), NodeClass.Unspecified),
            new AddReferencesItem(line, hasProperty, true, null, ExpandedNodeId.of(setpoint), NodeClass.Object)});

        assertThat(added).extracting(s -> s.value() & 0xFFFF_FFFFL).containsExactly(code(StatusCodes.Good),
                code(StatusCodes.BadDuplicateReferenceNotAllowed), code(StatusCodes.BadInvalidSelfReference),
                code(StatusCodes.BadNodeClassInvalid));
        assertThat(node(setpoint).referenceList()).contains(UaReference.inverse(generates, line));

        StatusCode[] deleted = services.deleteReferences(CONFIGURE_ADMIN, new DeleteReferencesItem[] {
            new DeleteReferencesItem(line, generates, true, ExpandedNodeId.of(setpoint), false)});
        assertThat(deleted[0].isGood()).isTrue();
        assertThat(node(line).referenceList()).doesNotContain(UaReference.forward(generates, setpoint));
        assertThat(node(setpoint).referenceList()).contains(UaReference.inverse(generates, line));

        services.deleteReferences(CONFIGURE_ADMIN, new DeleteReferencesItem[] {
            new DeleteReferencesItem(setpoint, generates, false, ExpandedNodeId.of(line), true)});
        assertThat(node(setpoint).referenceList()).doesNotContain(UaReference.inverse(generates, line));
    }

    @Test
    void a_request_over_the_operation_limit_is_bad_too_many_operations() {
        AddNodesItem[] four = {setpoint(), setpoint(), setpoint(), setpoint()};
        RequestHeader header = new RequestHeader(NodeId.NULL, DateTime.now(), 1, 0, null, 0, ExtensionObject.NULL);

        assertThatThrownBy(() -> services.addNodes(null, new AddNodesRequest(header, four)))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTooManyOperations));
        assertThatThrownBy(() -> services.addNodes(null, new AddNodesRequest(header, new AddNodesItem[0])))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadNothingToDo));
    }

    @Test
    void added_nodes_are_saved_and_come_back_after_a_restart_and_deleted_ones_do_not(@TempDir Path directory)
            throws Exception {
        NodeManagementSettings persisted = NodeManagementSettings.enabledForConfigureAdmin()
                .withPersistDirectory(directory);
        start(persisted);
        NodeId setpoint = addOne(CONFIGURE_ADMIN, setpoint()).addedNodeId();
        NodeId level = addOne(CONFIGURE_ADMIN, variable("Level", null, 1.5, NodeId.ns0(NodeIds.Double),
                NodeId.ns0(NodeIds.AnalogItemType))).addedNodeId();
        Path file = directory.resolve("urn_test_nodemgmt.NodeSet2.xml");
        assertThat(file).exists();
        assertThat(Files.readString(file)).contains("Line.Setpoint").contains("Line.Level.EURange");

        start(persisted); // a new server over the same directory

        VariableNode restored = (VariableNode) node(setpoint);
        assertThat(restored).isNotNull();
        assertThat(restored.value().value().value()).isEqualTo(42.0);
        assertThat(node(NodeId.string(ns, "Line.Level.EURange"))).isNotNull();
        assertThat(node(line).referenceList()).contains(UaReference.forward(HAS_COMPONENT, setpoint));

        services.deleteNodes(CONFIGURE_ADMIN, new DeleteNodesItem[] {new DeleteNodesItem(setpoint, true),
            new DeleteNodesItem(level, true)});
        assertThat(file).doesNotExist();
        start(persisted);
        assertThat(node(setpoint)).isNull();
    }
}
