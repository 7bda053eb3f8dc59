package dev.opcua.stack.server.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.structured.AttributeOperand;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.ElementOperand;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.LiteralOperand;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.subscriptions.events.EventFilterEvaluator;
import dev.opcua.stack.server.subscriptions.events.EventTypeTree;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.List;

/**
 * EventFilter validation and where-clause evaluation (Part 4, 7.7.3 operators, 7.22.3 EventFilter), with
 * filters the fuzzer builds: up to 8 elements of any FilterOperator, each with up to 4 operands that are
 * SimpleAttributeOperands (event types, browse paths, attribute ids and index ranges of its choosing),
 * LiteralOperands (scalars, arrays, NodeIds, any text as a Like pattern), ElementOperands (any index,
 * also cyclic and out of range), AttributeOperands (not allowed in events) or nulls; and a select
 * clause. The filter is compiled against namespace 0's event types and evaluated on three events.
 *
 * <p>A filter the server cannot use must come back invalid with its EventFilterResult (one status per
 * element); compiling or evaluating must never throw, and an invalid filter must never be evaluated
 * as valid. Anything else is a finding. Structure-aware inputs reach the evaluator at once; the
 * decoder that turns bytes into an EventFilter has its own target ({@code BinaryDecoderFuzzTest}).
 */
class EventFilterFuzzTest {

    private static final EventTypeTree TYPES = EventTypeTree.of(Namespace0Loader.load());
    private static final NodeId[] TYPE_IDS = {NodeId.ns0(NodeIds.BaseEventType), NodeId.ns0(NodeIds.ConditionType),
            NodeId.ns0(NodeIds.AuditEventType), NodeId.ns0(NodeIds.SystemEventType), NodeId.ns0(NodeIds.Server)};
    private static final String[] NAMES = {"EventId", "EventType", "Severity", "Message", "SourceName", "Time",
            "Count", "Ratio", "Values", "EnabledState", "Id"};
    private static final FilterOperator[] OPERATORS = FilterOperator.values();

    private static final List<UaEvent> EVENTS = List.of(
            event(NodeIds.BaseEventType, 500)
                    .field("Count", Variant.ofInt32(7))
                    .field("Ratio", Variant.ofDouble(0.5))
                    .field("Values", Variant.ofArray(BuiltinType.Int32, new int[] {1, 2, 3}))
                    .build(),
            event(NodeIds.SystemEventType, 1).build(),
            event(NodeIds.AuditEventType, 1000).field("Count", Variant.ofString("7")).build());

    private static UaEvent.Builder event(int type, int severity) {
        return UaEvent.builder(NodeId.ns0(type)).sourceNode(NodeId.ns0(NodeIds.Server)).sourceName("Server")
                .message("fuzz event").severity(severity);
    }

    @FuzzTest(maxDuration = "5m")
    void compileAndEvaluate(FuzzedDataProvider data) {
        SimpleAttributeOperand[] select = new SimpleAttributeOperand[data.consumeInt(0, 3)];
        for (int i = 0; i < select.length; i++) {
            select[i] = field(data);
        }
        ContentFilterElement[] elements = new ContentFilterElement[data.consumeInt(0, 8)];
        for (int i = 0; i < elements.length; i++) {
            ExtensionObject[] operands = new ExtensionObject[data.consumeInt(0, 4)];
            for (int k = 0; k < operands.length; k++) {
                operands[k] = operand(data);
            }
            elements[i] = new ContentFilterElement(OPERATORS[data.consumeInt(0, OPERATORS.length - 1)], operands);
        }
        EventFilter filter = new EventFilter(select, data.consumeBoolean() ? new ContentFilter(elements) : null);

        EventFilterEvaluator evaluator = EventFilterEvaluator.compile(filter, TYPES);
        if (!evaluator.isValid()) {
            assertThat(evaluator.status().isBad()).as("an invalid filter has a Bad status").isTrue();
            assertThat(evaluator.result()).as("an invalid filter explains itself").isNotNull();
            return;
        }
        for (UaEvent event : EVENTS) {
            if (evaluator.matches(event)) {
                assertThat(evaluator.select(event)).hasSize(evaluator.fieldCount());
            }
        }
    }

    private static SimpleAttributeOperand field(FuzzedDataProvider data) {
        NodeId type = data.consumeBoolean() ? TYPE_IDS[data.consumeInt(0, TYPE_IDS.length - 1)]
                : NodeId.ns0(data.consumeInt(0, 20_000));
        QualifiedName[] path = new QualifiedName[data.consumeInt(0, 3)];
        for (int i = 0; i < path.length; i++) {
            String name = data.consumeBoolean() ? NAMES[data.consumeInt(0, NAMES.length - 1)] : data.consumeString(12);
            path[i] = QualifiedName.of(data.consumeInt(0, 2), name);
        }
        long attributeId = data.consumeBoolean() ? 13 : data.consumeLong(0, 30);
        String indexRange = data.consumeBoolean() ? null : data.consumeString(8);
        return new SimpleAttributeOperand(type, path, attributeId, indexRange);
    }

    private static ExtensionObject operand(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 4)) {
            case 0 -> ExtensionObject.of(field(data));
            case 1 -> ExtensionObject.of(new LiteralOperand(literal(data)));
            case 2 -> ExtensionObject.of(new ElementOperand(data.consumeLong(0, 12)));
            case 3 -> ExtensionObject.of(new AttributeOperand(NodeId.ns0(data.consumeInt(0, 3000)),
                    data.consumeString(4), null, data.consumeLong(0, 30), null));
            default -> null;
        };
    }

    private static Variant literal(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 9)) {
            case 0 -> Variant.ofInt32(data.consumeInt());
            case 1 -> Variant.ofDouble(data.consumeDouble());
            case 2 -> Variant.ofString(data.consumeString(24));
            case 3 -> Variant.ofBoolean(data.consumeBoolean());
            case 4 -> Variant.ofScalar(BuiltinType.UInt16, data.consumeInt(0, 65_535));
            case 5 -> Variant.ofArray(BuiltinType.Int32, data.consumeInts(4));
            case 6 -> Variant.ofScalar(BuiltinType.ByteString, ByteString.wrap(data.consumeBytes(8)));
            case 7 -> Variant.ofScalar(BuiltinType.NodeId, TYPE_IDS[data.consumeInt(0, TYPE_IDS.length - 1)]);
            case 8 -> Variant.ofScalar(BuiltinType.Int64, data.consumeLong());
            default -> Variant.NULL;
        };
    }
}
