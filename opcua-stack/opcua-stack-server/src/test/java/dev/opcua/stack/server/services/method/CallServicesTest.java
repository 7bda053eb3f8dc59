package dev.opcua.stack.server.services.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.CallRequest;
import dev.opcua.stack.core.types.structured.CallResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.nodes.ReadOperation;
import dev.opcua.stack.server.nodes.WriteOperation;
import dev.opcua.stack.server.services.RequestGuard;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Call as a whole (Part 4, 5.12.2): request checks, routing by the object's manager, results in order. */
class CallServicesTest {

    private final NodeManagers managers = new NodeManagers(new NamespaceTable("urn:test:server"));
    private final InMemoryNodeManager line = InMemoryNodeManager.builder("urn:test:line")
            .object("Pump")
            .method("Pump.Double", new Argument[] {new Argument("x", BuiltinType.Int32.dataTypeId(), -1, null,
                    LocalizedText.NULL)}, new Argument[] {new Argument("y", BuiltinType.Int32.dataTypeId(), -1, null,
                    LocalizedText.NULL)}, (context, in) -> new Variant[] {Variant.ofInt32(2 * (Integer) in[0].value())})
            .build();
    private final CompletableFuture<Void> later = new CompletableFuture<>();

    CallServicesTest() {
        managers.register(line);
        managers.register(new Plain("urn:test:plain"));
        managers.register(new Plain("urn:test:throws") {
            @Override
            public CompletableFuture<Void> call(OperationContext context, List<CallOperation> operations) {
                throw new IllegalStateException("bug");
            }
        });
        managers.register(new Plain("urn:test:async") {
            @Override
            public CompletableFuture<Void> call(OperationContext context, List<CallOperation> operations) {
                return later.thenRun(() -> operations.forEach(op -> op.complete(new Variant[] {Variant.ofString("late")})));
            }
        });
        managers.startup();
    }

    /** A manager without methods whose nodes are the object "X" and the variable "V". */
    private static class Plain implements NodeManager {
        private final String uri;

        Plain(String uri) {
            this.uri = uri;
        }

        @Override
        public List<String> namespaceUris() {
            return List.of(uri);
        }

        @Override
        public CompletableFuture<Void> read(OperationContext context, List<ReadOperation> operations) {
            for (ReadOperation op : operations) {
                String id = op.item().nodeId().stringId();
                op.complete("X".equals(id) ? DataValue.of(Variant.ofInt32(NodeClass.Object.value()))
                        : "V".equals(id) ? DataValue.of(Variant.ofInt32(NodeClass.Variable.value()))
                        : DataValue.ofStatus(StatusCode.of(StatusCodes.BadNodeIdUnknown)));
            }
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> write(OperationContext context, List<WriteOperation> operations) {
            return CompletableFuture.completedFuture(null);
        }
    }

    private static CallRequest request(CallMethodRequest... calls) {
        return new CallRequest(new RequestHeader(NodeId.NULL, DateTime.now(), 77, 0, null, 0, null), calls);
    }

    private NodeId in(String uri, String id) {
        return NodeId.string(managers.namespaces().indexOf(uri), id);
    }

    @Test
    void a_request_without_calls_is_bad_nothing_to_do_and_one_over_the_limit_bad_too_many_operations() {
        CallServices services = new CallServices(managers, RequestGuard.NONE, 2);
        assertThatThrownBy(() -> services.call(null, request()))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadNothingToDo));
        assertThatThrownBy(() -> services.call(null, new CallRequest(request().requestHeader(), null)))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadNothingToDo));
        CallMethodRequest any = new CallMethodRequest(NodeId.NULL, NodeId.NULL, null);
        assertThatThrownBy(() -> services.call(null, request(any, any, any)))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTooManyOperations));
    }

    @Test
    void the_guard_runs_before_anything_else() {
        CallServices services = new CallServices(managers, (channel, header) -> {
            throw new UaException(StatusCodes.BadSessionIdInvalid, "no session");
        }, 0);
        assertThatThrownBy(() -> services.call(null, request()))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadSessionIdInvalid));
    }

    @Test
    void each_call_goes_to_the_manager_of_its_object_and_results_come_back_in_request_order() {
        // a manager without methods answers after the object's NodeClass (Part 4, 5.11.2, Table 67)
        CallServices services = new CallServices(managers, RequestGuard.NONE, 0);
        NodeId pump = line.nodeId("Pump");
        CallResponse response = services.call(null, request(
                new CallMethodRequest(pump, line.nodeId("Pump.Double"), new Variant[] {Variant.ofInt32(21)}),
                new CallMethodRequest(in("urn:test:plain", "X"), line.nodeId("Pump.Double"), null),
                new CallMethodRequest(NodeId.string(42, "Nobody"), line.nodeId("Pump.Double"), null),
                new CallMethodRequest(in("urn:test:throws", "X"), in("urn:test:throws", "M"), null),
                new CallMethodRequest(pump, line.nodeId("Pump.Double"), new Variant[] {Variant.ofString("x")}),
                new CallMethodRequest(in("urn:test:plain", "Gone"), in("urn:test:plain", "M"), null),
                new CallMethodRequest(in("urn:test:plain", "V"), in("urn:test:plain", "M"), null)))
                .join();
        assertThat(response.responseHeader().requestHandle()).isEqualTo(77);
        CallMethodResult[] results = response.results();
        assertThat(results[0].outputArguments()).containsExactly(Variant.ofInt32(42));
        assertThat(results).extracting(r -> StatusCodes.name(r.statusCode().value())).containsExactly("Good",
                "BadMethodInvalid", "BadNodeIdUnknown", "BadInternalError", "BadInvalidArgument",
                "BadNodeIdUnknown", "BadNodeIdInvalid");
    }

    @Test
    void a_manager_may_answer_later_without_holding_the_worker() {
        CallServices services = new CallServices(managers, RequestGuard.NONE, 0);
        CompletableFuture<CallResponse> response = services.call(null, request(
                new CallMethodRequest(in("urn:test:async", "X"), in("urn:test:async", "M"), null)));
        assertThat(response).isNotDone();
        later.complete(null);
        CallMethodResult result = response.join().results()[0];
        assertThat(result.statusCode()).isEqualTo(StatusCode.GOOD);
        assertThat(result.outputArguments()).containsExactly(Variant.ofString("late"));
    }

    @Test
    void a_negative_limit_is_refused() {
        assertThatThrownBy(() -> new CallServices(managers, RequestGuard.NONE, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
