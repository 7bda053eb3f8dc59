package dev.opcua.stack.server.services.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.structured.BrowsePath;
import dev.opcua.stack.core.types.structured.BrowsePathResult;
import dev.opcua.stack.core.types.structured.BrowsePathTarget;
import dev.opcua.stack.core.types.structured.RegisterNodesRequest;
import dev.opcua.stack.core.types.structured.RelativePath;
import dev.opcua.stack.core.types.structured.RelativePathElement;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsRequest;
import dev.opcua.stack.core.types.structured.UnregisterNodesRequest;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.services.RequestGuard;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** TranslateBrowsePathsToNodeIds, RegisterNodes and UnregisterNodes over namespace 0 (Part 4, 5.8.4 to 5.8.6). */
class TranslateBrowsePathsTest {

    private static final NodeId HIERARCHICAL = NodeId.ns0(NodeIds.HierarchicalReferences);
    private static final NodeId HAS_COMPONENT = NodeId.ns0(NodeIds.HasComponent);
    private static NodeManagers managers;
    private static ReferenceTypeTree tree;

    @BeforeAll
    static void loadNamespace0() {
        NodeStore ns0 = Namespace0Loader.load();
        managers = new NodeManagers(new NamespaceTable("urn:test"));
        managers.register(new NodeStoreNodeManager(List.of(NamespaceTable.OPC_UA_NAMESPACE), ns0));
        tree = ReferenceTypeTree.of(ns0);
    }

    private static RequestHeader header() {
        return new RequestHeader(NodeId.NULL, DateTime.now(), 7, 0, null, 0, ExtensionObject.NULL);
    }

    private static RelativePathElement down(String name) {
        return new RelativePathElement(HIERARCHICAL, false, true, QualifiedName.of(0, name));
    }

    private static BrowsePath path(int start, RelativePathElement... elements) {
        return new BrowsePath(NodeId.ns0(start), new RelativePath(elements));
    }

    private static BrowsePathResult[] translate(int limit, BrowsePath... paths) {
        return new TranslateBrowsePaths(managers, RequestGuard.NONE, tree, limit)
                .translate(null, new TranslateBrowsePathsToNodeIdsRequest(header(), paths)).join().results();
    }

    @Test
    void root_objects_server_serverstatus_state_resolves_to_2259_as_a_complete_target() {
        BrowsePathResult[] results = translate(0, path(NodeIds.RootFolder,
                down("Objects"), down("Server"), down("ServerStatus"), down("State")));

        assertThat(results).hasSize(1);
        assertThat(results[0].statusCode().isGood()).isTrue();
        BrowsePathTarget[] targets = results[0].targets();
        assertThat(targets).hasSize(1);
        assertThat(targets[0].targetId()).isEqualTo(ExpandedNodeId.of(NodeId.ns0(NodeIds.Server_ServerStatus_State)));
        assertThat(targets[0].remainingPathIndex()).isEqualTo(0xFFFF_FFFFL);
    }

    @Test
    void paths_of_one_request_are_answered_in_order_and_each_on_its_own() {
        BrowsePathResult[] results = translate(0,
                path(NodeIds.Server, new RelativePathElement(HAS_COMPONENT, false, false,
                        QualifiedName.of(0, "ServerStatus"))),
                path(NodeIds.RootFolder, down("Objects"), down("NoSuchNode")),
                path(NodeIds.ObjectsFolder, down("Server")));

        assertThat(results[0].targets()[0].targetId().nodeId()).isEqualTo(NodeId.ns0(NodeIds.Server_ServerStatus));
        assertThat(results[1].statusCode().value()).isEqualTo(StatusCodes.BadNoMatch);
        assertThat(results[1].targets()).isEmpty();
        assertThat(results[2].targets()[0].targetId().nodeId()).isEqualTo(NodeId.ns0(NodeIds.Server));
    }

    @Test
    void an_inverse_element_walks_from_a_child_to_its_parent() {
        BrowsePathResult[] results = translate(0, path(NodeIds.Server_ServerStatus_State,
                new RelativePathElement(HIERARCHICAL, true, true, QualifiedName.of(0, "ServerStatus")),
                new RelativePathElement(HIERARCHICAL, true, true, QualifiedName.of(0, "Server"))));

        assertThat(results[0].statusCode().isGood()).isTrue();
        assertThat(results[0].targets()[0].targetId().nodeId()).isEqualTo(NodeId.ns0(NodeIds.Server));
    }

    @Test
    void a_reference_type_without_subtypes_does_not_match_its_subtypes() {
        BrowsePathResult[] results = translate(0, path(NodeIds.RootFolder,
                new RelativePathElement(HIERARCHICAL, false, false, QualifiedName.of(0, "Objects"))));

        assertThat(results[0].statusCode().value()).isEqualTo(StatusCodes.BadNoMatch);
    }

    @Test
    void an_empty_target_name_before_the_last_element_is_BadBrowseNameInvalid() {
        BrowsePathResult[] results = translate(0, path(NodeIds.RootFolder, down(""), down("Server")),
                path(NodeIds.RootFolder, new RelativePathElement(HIERARCHICAL, false, true, QualifiedName.NULL),
                        down("Server")));

        assertThat(results[0].statusCode().value()).isEqualTo(StatusCodes.BadBrowseNameInvalid);
        assertThat(results[1].statusCode().value()).isEqualTo(StatusCodes.BadBrowseNameInvalid);
    }

    @Test
    void an_empty_target_name_on_the_last_element_matches_every_target() {
        BrowsePathResult[] results = translate(0, path(NodeIds.Server_ServerStatus, new RelativePathElement(
                HAS_COMPONENT, false, false, QualifiedName.NULL)));

        assertThat(results[0].statusCode().isGood()).isTrue();
        assertThat(results[0].targets()).extracting(t -> t.targetId().nodeId())
                .contains(NodeId.ns0(NodeIds.Server_ServerStatus_State),
                        NodeId.ns0(NodeIds.Server_ServerStatus_CurrentTime));
    }

    @Test
    void an_unknown_start_is_BadNodeIdUnknown_a_null_one_BadNodeIdInvalid_no_elements_BadNothingToDo() {
        BrowsePathResult[] results = translate(0,
                new BrowsePath(NodeId.numeric(0, 999_999), new RelativePath(new RelativePathElement[] {down("x")})),
                new BrowsePath(NodeId.numeric(5, 1), new RelativePath(new RelativePathElement[] {down("x")})),
                new BrowsePath(NodeId.NULL, new RelativePath(new RelativePathElement[] {down("x")})),
                new BrowsePath(NodeId.ns0(NodeIds.RootFolder), new RelativePath(new RelativePathElement[0])));

        assertThat(results[0].statusCode().value()).isEqualTo(StatusCodes.BadNodeIdUnknown);
        assertThat(results[1].statusCode().value()).isEqualTo(StatusCodes.BadNodeIdUnknown);
        assertThat(results[2].statusCode().value()).isEqualTo(StatusCodes.BadNodeIdInvalid);
        assertThat(results[3].statusCode().value()).isEqualTo(StatusCodes.BadNothingToDo);
    }

    @Test
    void a_request_without_paths_or_over_the_limit_is_refused_as_a_whole() {
        assertThatThrownBy(() -> translate(0))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadNothingToDo));
        BrowsePath p = path(NodeIds.RootFolder, down("Objects"));
        assertThatThrownBy(() -> translate(2, p, p, p))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTooManyOperations));
        assertThat(translate(3, p, p, p)).hasSize(3);
    }

    @Test
    void the_guard_runs_before_anything_else() {
        RequestGuard refuse = (channel, header) -> {
            throw new UaException(StatusCodes.BadSessionIdInvalid, "no session");
        };
        TranslateBrowsePaths service = new TranslateBrowsePaths(managers, refuse, tree, 0);
        assertThatThrownBy(() -> service.translate(null, new TranslateBrowsePathsToNodeIdsRequest(header(), null)))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadSessionIdInvalid));
    }

    @Test
    void register_nodes_echoes_the_ids_and_unregister_answers_good() {
        RegisterNodes service = new RegisterNodes(RequestGuard.NONE, 2);
        NodeId[] ids = {NodeId.ns0(NodeIds.Server), NodeId.numeric(3, 42)};

        assertThat(service.register(null, new RegisterNodesRequest(header(), ids)).registeredNodeIds())
                .containsExactly(ids);
        assertThat(service.unregister(null, new UnregisterNodesRequest(header(), ids)).responseHeader()
                .serviceResult().isGood()).isTrue();
        assertThatThrownBy(() -> service.register(null, new RegisterNodesRequest(header(), new NodeId[0])))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadNothingToDo));
        assertThatThrownBy(() -> service.register(null, new RegisterNodesRequest(header(), new NodeId[3])))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTooManyOperations));
    }
}
