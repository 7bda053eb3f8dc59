package dev.opcua.stack.server.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseRequest;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.services.view.ReferenceTypeTree;
import dev.opcua.stack.server.services.view.ViewServices;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The builder's address space, Call with its argument rules (Part 4, 5.12.2), live and vetoed values. */
class InMemoryNodeManagerTest {

    private static final String NS = "urn:test:line";
    private static final NodeId DOUBLE = NodeId.ns0(NodeIds.Double);
    private static final NodeId INT32 = NodeId.ns0(NodeIds.Int32);

    private final AtomicInteger ticks = new AtomicInteger();
    private final List<Variant> written = new ArrayList<>();

    private InMemoryNodeManagerBuilder line() {
        return InMemoryNodeManager.builder(NS)
                .folder("Line1", f -> f.displayName("Line 1"))
                .object("Line1.Motor", o -> o.description("the main drive"))
                .variable("Line1.Motor.Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(1.5)).writable()
                        .onWrite((context, value) -> {
                            if (value.doubleValue() > 100) {
                                throw new UaException(StatusCodes.BadOutOfRange, "at most 100");
                            }
                            written.add(value);
                        }))
                .variable("Line1.Motor.Ticks", INT32, v -> v.valueSupplier(() -> Variant.ofInt32(ticks.incrementAndGet())))
                .variable("Line1.Motor.Broken", BuiltinType.Int32, v -> v.valueSupplier(() -> {
                    throw new UaException(StatusCodes.BadDeviceFailure, "sensor unplugged");
                }))
                .variable("Line1.Motor.Limits", BuiltinType.Double, v -> v.valueRank(1).arrayDimensions(2)
                        .value(Variant.ofArray(BuiltinType.Double, new double[] {0, 100})))
                .variable("Line1.Counter", BuiltinType.Int32, v -> v.id(4711).value(Variant.ofInt32(3)))
                .method("Line1.Motor.Scale", new Argument[] {argument("value", DOUBLE), argument("factor", INT32)},
                        new Argument[] {argument("result", DOUBLE)},
                        (context, in) -> new Variant[] {Variant.ofDouble(in[0].doubleValue() * in[1].doubleValue())})
                .method("Line1.Motor.Fail", null, null, (context, in) -> {
                    throw new UaException(StatusCodes.BadInvalidState, "motor is off");
                })
                .method("Line1.Motor.Crash", null, null, (context, in) -> {
                    throw new IllegalStateException("bug");
                });
    }

    private static Argument argument(String name, NodeId type) {
        return new Argument(name, type, -1, null, LocalizedText.NULL);
    }

    /** Registers ns0 (when given) and the manager, then starts them as the server does. */
    private static NodeManagers start(InMemoryNodeManager manager, NodeStore ns0) {
        NodeManagers managers = new NodeManagers(new NamespaceTable("urn:test:server"));
        if (ns0 != null) {
            managers.register(new NodeStoreNodeManager(List.of(NamespaceTable.OPC_UA_NAMESPACE), ns0));
        }
        managers.register(manager);
        managers.startup();
        managers.linkReverseReferences();
        return managers;
    }

    private static CallMethodResult call(NodeManagers managers, NodeId object, NodeId method, Variant... inputs) {
        return managers.call(OperationContext.INTERNAL, new CallMethodRequest[] {
                new CallMethodRequest(object, method, inputs)}).join()[0];
    }

    private static DataValue read(NodeManagers managers, NodeId node, int attribute) {
        return managers.read(OperationContext.INTERNAL,
                new ReadValueId[] {new ReadValueId(node, attribute, null, QualifiedName.NULL)}, 0,
                TimestampsToReturn.Both).join()[0];
    }

    private static StatusCode write(NodeManagers managers, NodeId node, Variant value) {
        return managers.write(OperationContext.INTERNAL,
                new WriteValue[] {new WriteValue(node, AttributeIds.Value, null, DataValue.of(value))}).join()[0];
    }

    @Test
    void the_builder_hangs_the_nodes_below_the_objects_folder_with_their_types_browsable_through_view_services() {
        NodeStore ns0 = Namespace0Loader.load();
        InMemoryNodeManager manager = line().build();
        NodeManagers managers = start(manager, ns0);
        int ns = manager.namespaceIndex();
        NodeId line = manager.nodeId("Line1");
        assertThat(line).isEqualTo(NodeId.string(ns, "Line1"));
        assertThat(manager.nodeId("Line1.Counter")).isEqualTo(NodeId.numeric(ns, 4711));
        assertThat(ns0.get(NodeId.ns0(NodeIds.ObjectsFolder)).referenceList())
                .contains(UaReference.forward(NodeId.ns0(NodeIds.Organizes), line));

        ViewServices view = new ViewServices(managers, RequestGuard.NONE, ReferenceTypeTree.of(ns0), 10, 0);
        BrowseResult[] results = view.browse(null, new BrowseRequest(
                new RequestHeader(NodeId.NULL, DateTime.now(), 1, 0, null, 0, null), null, 0,
                new BrowseDescription[] {
                    browse(line), browse(manager.nodeId("Line1.Motor")), browse(manager.nodeId("Line1.Motor.Scale"))})
                ).join().results();
        assertThat(results[0].references()).extracting(r -> r.browseName().name() + "/" + r.typeDefinition().nodeId())
                .containsExactlyInAnyOrder("Motor/" + NodeId.ns0(NodeIds.BaseObjectType), "Counter/"
                        + NodeId.ns0(NodeIds.BaseDataVariableType));
        assertThat(results[0].references()).extracting(ReferenceDescription::referenceTypeId)
                .containsOnly(NodeId.ns0(NodeIds.Organizes));
        assertThat(results[1].references()).extracting(r -> r.browseName().name())
                .containsExactlyInAnyOrder("Speed", "Ticks", "Broken", "Limits", "Scale", "Fail", "Crash");
        assertThat(results[1].references()).extracting(ReferenceDescription::referenceTypeId)
                .containsOnly(NodeId.ns0(NodeIds.HasComponent));
        assertThat(results[2].references()).extracting(r -> r.browseName().name() + "/" + r.typeDefinition().nodeId())
                .containsExactlyInAnyOrder("InputArguments/" + NodeId.ns0(NodeIds.PropertyType),
                        "OutputArguments/" + NodeId.ns0(NodeIds.PropertyType));

        BrowseResult folderType = view.browse(null, new BrowseRequest(
                new RequestHeader(NodeId.NULL, DateTime.now(), 2, 0, null, 0, null), null, 0,
                new BrowseDescription[] {new BrowseDescription(line, BrowseDirection.Forward,
                        NodeId.ns0(NodeIds.HasTypeDefinition), false, 0, 0x3F)})).join().results()[0];
        assertThat(folderType.references()).extracting(r -> r.nodeId().nodeId())
                .containsExactly(NodeId.ns0(NodeIds.FolderType));
    }

    private static BrowseDescription browse(NodeId node) {
        return new BrowseDescription(node, BrowseDirection.Forward, NodeId.ns0(NodeIds.HierarchicalReferences), true,
                0, 0x3F);
    }

    @Test
    void a_method_lists_its_arguments_as_properties_holding_argument_structures() {
        InMemoryNodeManager manager = line().build();
        NodeManagers managers = start(manager, null);
        DataValue inputs = read(managers, manager.nodeId("Line1.Motor.Scale.InputArguments"), AttributeIds.Value);
        ExtensionObject[] arguments = (ExtensionObject[]) inputs.value().value();
        assertThat(arguments).extracting(e -> ((Argument) e.decoded()).name()).containsExactly("value", "factor");
        assertThat(read(managers, manager.nodeId("Line1.Motor.Scale.InputArguments"), AttributeIds.DataType).value())
                .isEqualTo(Variant.of(NodeId.ns0(NodeIds.Argument)));
        assertThat(read(managers, manager.nodeId("Line1.Motor.Scale"), AttributeIds.Executable).value())
                .isEqualTo(Variant.ofBoolean(true));
        assertThat(manager.store().get(NodeId.string(manager.namespaceIndex(), "Line1.Motor.Fail.InputArguments")))
                .as("a method without inputs has no InputArguments property").isNull();
    }

    @Test
    void a_call_with_fitting_arguments_returns_the_handlers_outputs() {
        InMemoryNodeManager manager = line().build();
        NodeManagers managers = start(manager, null);
        CallMethodResult result = call(managers, manager.nodeId("Line1.Motor"), manager.nodeId("Line1.Motor.Scale"),
                Variant.ofDouble(2.5), Variant.ofInt32(4));
        assertThat(result.statusCode()).isEqualTo(StatusCode.GOOD);
        assertThat(result.outputArguments()).containsExactly(Variant.ofDouble(10.0));
        assertThat(result.inputArgumentResults()).containsExactly(StatusCode.GOOD, StatusCode.GOOD);
    }

    @Test
    void too_few_too_many_and_ill_typed_arguments_are_refused_before_the_handler_runs() {
        InMemoryNodeManager manager = line().build();
        NodeManagers managers = start(manager, null);
        NodeId motor = manager.nodeId("Line1.Motor");
        NodeId scale = manager.nodeId("Line1.Motor.Scale");
        assertThat(call(managers, motor, scale, Variant.ofDouble(1)).statusCode().value())
                .isEqualTo(StatusCodes.BadArgumentsMissing);
        assertThat(call(managers, motor, scale).statusCode().value()).isEqualTo(StatusCodes.BadArgumentsMissing);
        assertThat(call(managers, motor, scale, Variant.ofDouble(1), Variant.ofInt32(2), Variant.ofInt32(3))
                .statusCode().value()).isEqualTo(StatusCodes.BadTooManyArguments);
        CallMethodResult wrongType = call(managers, motor, scale, Variant.ofDouble(1), Variant.ofString("two"));
        assertThat(wrongType.statusCode().value()).isEqualTo(StatusCodes.BadInvalidArgument);
        assertThat(wrongType.inputArgumentResults())
                .containsExactly(StatusCode.GOOD, StatusCode.of(StatusCodes.BadTypeMismatch));
        assertThat(wrongType.outputArguments()).isEmpty();
    }

    @Test
    void unknown_objects_non_objects_and_methods_of_other_objects_are_refused() {
        InMemoryNodeManager manager = line().build();
        NodeManagers managers = start(manager, null);
        int ns = manager.namespaceIndex();
        NodeId scale = manager.nodeId("Line1.Motor.Scale");
        assertThat(call(managers, NodeId.string(ns, "Nowhere"), scale).statusCode().value())
                .isEqualTo(StatusCodes.BadNodeIdUnknown);
        assertThat(call(managers, manager.nodeId("Line1.Motor.Speed"), scale).statusCode().value())
                .isEqualTo(StatusCodes.BadNodeIdInvalid);
        assertThat(call(managers, manager.nodeId("Line1"), scale).statusCode().value())
                .isEqualTo(StatusCodes.BadMethodInvalid);
        assertThat(call(managers, manager.nodeId("Line1.Motor"), manager.nodeId("Line1.Motor.Speed")).statusCode()
                .value()).isEqualTo(StatusCodes.BadMethodInvalid);
        assertThat(call(managers, NodeId.string(ns + 5, "Motor"), scale).statusCode().value())
                .as("an object of a namespace nobody owns").isEqualTo(StatusCodes.BadNodeIdUnknown);
    }

    @Test
    void a_handlers_ua_exception_gives_its_status_and_any_other_exception_bad_internal_error() {
        InMemoryNodeManager manager = line().build();
        NodeManagers managers = start(manager, null);
        NodeId motor = manager.nodeId("Line1.Motor");
        assertThat(call(managers, motor, manager.nodeId("Line1.Motor.Fail")).statusCode().value())
                .isEqualTo(StatusCodes.BadInvalidState);
        assertThat(call(managers, motor, manager.nodeId("Line1.Motor.Crash")).statusCode().value())
                .isEqualTo(StatusCodes.BadInternalError);
    }

    @Test
    void a_supplied_variable_reads_a_live_value_each_time_and_a_failing_supplier_gives_its_status() {
        InMemoryNodeManager manager = line().build();
        NodeManagers managers = start(manager, null);
        NodeId live = manager.nodeId("Line1.Motor.Ticks");
        assertThat(read(managers, live, AttributeIds.Value).value()).isEqualTo(Variant.ofInt32(1));
        assertThat(read(managers, live, AttributeIds.Value).value()).isEqualTo(Variant.ofInt32(2));
        assertThat(read(managers, manager.nodeId("Line1.Motor.Broken"), AttributeIds.Value).statusCode().value())
                .isEqualTo(StatusCodes.BadDeviceFailure);
        assertThat(write(managers, live, Variant.ofInt32(9)).value())
                .as("read-only unless declared writable").isEqualTo(StatusCodes.BadNotWritable);
    }

    @Test
    void a_write_handler_sees_the_value_before_it_is_stored_and_can_veto_it() {
        InMemoryNodeManager manager = line().build();
        NodeManagers managers = start(manager, null);
        NodeId speed = manager.nodeId("Line1.Motor.Speed");
        assertThat(write(managers, speed, Variant.ofDouble(150)).value()).isEqualTo(StatusCodes.BadOutOfRange);
        assertThat(read(managers, speed, AttributeIds.Value).value()).isEqualTo(Variant.ofDouble(1.5));
        assertThat(write(managers, speed, Variant.ofDouble(42))).isEqualTo(StatusCode.GOOD);
        assertThat(read(managers, speed, AttributeIds.Value).value()).isEqualTo(Variant.ofDouble(42));
        assertThat(written).containsExactly(Variant.ofDouble(42));
        assertThat(write(managers, speed, Variant.ofString("fast")).value())
                .as("the type check runs before the handler").isEqualTo(StatusCodes.BadTypeMismatch);
        assertThat(written).hasSize(1);
        assertThat(read(managers, manager.nodeId("Line1.Motor.Limits"), AttributeIds.ValueRank).value())
                .isEqualTo(Variant.ofInt32(1));
    }

    @Test
    void an_explicit_parent_of_namespace_zero_organizes_a_top_level_node() {
        NodeStore ns0 = Namespace0Loader.load();
        InMemoryNodeManager manager = InMemoryNodeManager.builder(NS)
                .object("Boiler", o -> o.parent(NodeId.ns0(NodeIds.Server))).build();
        start(manager, ns0);
        assertThat(manager.store().get(manager.nodeId("Boiler")).referenceList())
                .contains(UaReference.inverse(NodeId.ns0(NodeIds.Organizes), NodeId.ns0(NodeIds.Server)));
        assertThat(ns0.get(NodeId.ns0(NodeIds.Server)).referenceList())
                .contains(UaReference.forward(NodeId.ns0(NodeIds.Organizes), manager.nodeId("Boiler")));
    }

    @Test
    void building_and_browsing_ten_thousand_variables_takes_about_ten_times_as_long_as_one_thousand() {
        // A timing ratio: meaningful only on a quiet machine, so a scale run, not the default build.
        Assumptions.assumeTrue(Boolean.getBoolean("opcua.scale"), "scale check: run with -Dopcua.scale=true");
        build(1_000); // warm up the JIT
        build(10_000);
        long small = Long.MAX_VALUE;
        long large = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            small = Math.min(small, build(1_000));
            large = Math.min(large, build(10_000));
        }
        // linear: about 10x; quadratic reference handling would be about 100x
        assertThat(large).isLessThan(20 * Math.max(small, 1_000_000L));
    }

    /** Builds, starts and browses a folder of {@code count} variables; returns the nanoseconds taken. */
    private static long build(int count) {
        long start = System.nanoTime();
        InMemoryNodeManagerBuilder builder = InMemoryNodeManager.builder(NS).folder("Big");
        for (int i = 0; i < count; i++) {
            builder.variable("Big.V" + i, BuiltinType.Int32, v -> v.value(Variant.ofInt32(0)));
        }
        InMemoryNodeManager manager = builder.build();
        NodeManagers managers = start(manager, null);
        BrowseOperation[] browsed = managers.references(OperationContext.INTERNAL,
                new NodeId[] {manager.nodeId("Big")}).join();
        long elapsed = System.nanoTime() - start;
        // count inverse Organizes to Objects + HasTypeDefinition + one Organizes per variable
        assertThat(browsed[0].references()).hasSize(count + 2);
        return elapsed;
    }
}
