package dev.opcua.stack.server.subscriptions.events;

import static dev.opcua.stack.server.subscriptions.events.Filters.AUDIT_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.BASE_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.CONDITION_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.compile;
import static dev.opcua.stack.server.subscriptions.events.Filters.el;
import static dev.opcua.stack.server.subscriptions.events.Filters.eo;
import static dev.opcua.stack.server.subscriptions.events.Filters.f;
import static dev.opcua.stack.server.subscriptions.events.Filters.field;
import static dev.opcua.stack.server.subscriptions.events.Filters.lit;
import static dev.opcua.stack.server.subscriptions.events.Filters.ns0;
import static dev.opcua.stack.server.subscriptions.events.Filters.op;
import static dev.opcua.stack.server.subscriptions.events.Filters.where;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.structured.AttributeOperand;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.ContentFilterElementResult;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.EventFilterResult;
import dev.opcua.stack.core.types.structured.RelativePath;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** Validation of EventFilters at create/modify time (Part 4, 7.7.2, 7.7.3 and 7.22.3): a status per clause. */
class EventFilterValidationTest {

    private static EventFilterEvaluator select(SimpleAttributeOperand... clauses) {
        return EventFilterEvaluator.compile(new EventFilter(clauses, null), ns0());
    }

    private static int selectStatus(SimpleAttributeOperand clause) {
        EventFilterEvaluator evaluator = select(field("Severity"), clause);
        assertThat(evaluator.isValid()).as("a bad select clause does not refuse the item").isTrue();
        assertThat(evaluator.hasErrors()).isTrue();
        assertThat(evaluator.result().selectClauseResults()[0]).isEqualTo(StatusCode.GOOD);
        assertThat(evaluator.problems()).hasSize(1).allMatch(p -> p.startsWith("select clause 1: "));
        return evaluator.result().selectClauseResults()[1].value();
    }

    private static ContentFilterElementResult element(EventFilterEvaluator evaluator, int index) {
        assertThat(evaluator.status().value()).isEqualTo(StatusCodes.BadEventFilterInvalid);
        return evaluator.result().whereClauseResult().elementResults()[index];
    }

    private static int elementStatus(ContentFilterElement... elements) {
        return element(compile(elements), 0).statusCode().value();
    }

    /** The status of operand {@code k} of element 0, checking that the element says BadFilterOperandInvalid. */
    private static int operandStatus(int k, ContentFilterElement... elements) {
        ContentFilterElementResult result = element(compile(elements), 0);
        assertThat(result.statusCode().value()).isEqualTo(StatusCodes.BadFilterOperandInvalid);
        assertThat(result.operandStatusCodes()).hasSize(elements[0].filterOperands().length);
        return result.operandStatusCodes()[k].value();
    }

    @Test
    void a_valid_filter_has_good_results_for_every_clause_and_element() {
        EventFilterEvaluator evaluator = compile(op(FilterOperator.And, el(1), el(2)),
                op(FilterOperator.GreaterThanOrEqual, f("Severity"), lit(Variant.ofUInt16(500))),
                op(FilterOperator.OfType, lit(BASE_EVENT_TYPE)));
        assertThat(evaluator.status()).isEqualTo(StatusCode.GOOD);
        assertThat(evaluator.hasErrors()).isFalse();
        assertThat(evaluator.problems()).isEmpty();
        EventFilterResult result = evaluator.result();
        assertThat(result.selectClauseResults()).hasSize(4).containsOnly(StatusCode.GOOD);
        assertThat(result.whereClauseResult().elementResults()).hasSize(3).allSatisfy(r -> {
            assertThat(r.statusCode()).isEqualTo(StatusCode.GOOD);
            assertThat(r.operandStatusCodes()).isEmpty();
        });
    }

    @Test
    void a_filter_without_select_clauses_is_refused() {
        EventFilterEvaluator empty = EventFilterEvaluator.compile(new EventFilter(new SimpleAttributeOperand[0], null),
                ns0());
        assertThat(empty.status().value()).isEqualTo(StatusCodes.BadEventFilterInvalid);
        assertThat(empty.problems())
                .containsExactly("BadEventFilterInvalid (0x80470000): the EventFilter has no select clause");
        EventFilterEvaluator nullClauses = EventFilterEvaluator.compile(new EventFilter(null, null), ns0());
        assertThat(nullClauses.status().value()).isEqualTo(StatusCodes.BadEventFilterInvalid);
        EventFilterEvaluator none = EventFilterEvaluator.compile(null, ns0());
        assertThat(none.status().value()).isEqualTo(StatusCodes.BadEventFilterInvalid);
        assertThatThrownBy(() -> none.matches(Filters.event(1).build())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("BadEventFilterInvalid");
    }

    @Test
    void select_clause_statuses_name_each_problem() {
        assertThat(selectStatus(new SimpleAttributeOperand(null, new QualifiedName[] {QualifiedName.of(0, "Severity")},
                AttributeIds.Value, null))).isEqualTo(StatusCodes.BadTypeDefinitionInvalid);
        assertThat(selectStatus(field(NodeId.NULL, "Severity"))).isEqualTo(StatusCodes.BadTypeDefinitionInvalid);
        assertThat(selectStatus(field(NodeId.numeric(9, 1234), "Severity"))).isEqualTo(StatusCodes.BadNodeIdUnknown);
        assertThat(selectStatus(field(NodeId.ns0(NodeIds.BaseObjectType), "Severity")))
                .isEqualTo(StatusCodes.BadTypeDefinitionInvalid);
        assertThat(selectStatus(new SimpleAttributeOperand(BASE_EVENT_TYPE,
                new QualifiedName[] {QualifiedName.of(0, "EnabledState"), QualifiedName.NULL}, AttributeIds.Value,
                null))).isEqualTo(StatusCodes.BadBrowseNameInvalid);
        assertThat(selectStatus(new SimpleAttributeOperand(BASE_EVENT_TYPE, new QualifiedName[] {null},
                AttributeIds.Value, null))).isEqualTo(StatusCodes.BadBrowseNameInvalid);
        assertThat(selectStatus(new SimpleAttributeOperand(BASE_EVENT_TYPE,
                new QualifiedName[] {QualifiedName.of(0, "Severity")}, 99, null)))
                .isEqualTo(StatusCodes.BadAttributeIdInvalid);
        assertThat(selectStatus(new SimpleAttributeOperand(BASE_EVENT_TYPE,
                new QualifiedName[] {QualifiedName.of(0, "Severity")}, AttributeIds.DisplayName, null)))
                .isEqualTo(StatusCodes.BadAttributeIdInvalid);
        assertThat(selectStatus(new SimpleAttributeOperand(BASE_EVENT_TYPE, new QualifiedName[0], AttributeIds.Value,
                null))).isEqualTo(StatusCodes.BadAttributeIdInvalid);
        assertThat(selectStatus(field(AUDIT_EVENT_TYPE, "NoSuchField"))).isEqualTo(StatusCodes.BadNodeIdUnknown);
        assertThat(selectStatus(new SimpleAttributeOperand(BASE_EVENT_TYPE,
                new QualifiedName[] {QualifiedName.of(0, "SourceName")}, AttributeIds.Value, "5:2")))
                .isEqualTo(StatusCodes.BadIndexRangeInvalid);
    }

    @Test
    void select_clause_problems_are_sentences() {
        EventFilterEvaluator evaluator = select(field(AUDIT_EVENT_TYPE, "NoSuchField"));
        assertThat(evaluator.problems()).containsExactly(
                "select clause 0: BadNodeIdUnknown (0x80340000): event type i=2052 declares no field NoSuchField");
    }

    @Test
    void select_clauses_for_fields_of_the_type_or_its_supertypes_or_any_path_of_base_event_type_are_accepted() {
        EventFilterEvaluator evaluator = select(field(AUDIT_EVENT_TYPE, "ClientUserId"),
                field(AUDIT_EVENT_TYPE, "Severity"), field(CONDITION_TYPE, "EnabledState", "Id"),
                field(BASE_EVENT_TYPE, "AnythingAtAll"),
                new SimpleAttributeOperand(CONDITION_TYPE, new QualifiedName[0], AttributeIds.NodeId, null));
        assertThat(evaluator.hasErrors()).as(evaluator.problems().toString()).isFalse();
    }

    @Test
    void an_element_without_operator_is_invalid() {
        assertThat(elementStatus(new ContentFilterElement(null, new ExtensionObject[] {lit(1)})))
                .isEqualTo(StatusCodes.BadFilterOperatorInvalid);
    }

    @ParameterizedTest
    @EnumSource(value = FilterOperator.class, names = {"Cast", "InView", "RelatedTo", "BitwiseAnd", "BitwiseOr"})
    void operators_beyond_the_common_set_are_unsupported(FilterOperator operator) {
        assertThat(elementStatus(op(operator, lit(1), lit(2)))).isEqualTo(StatusCodes.BadFilterOperatorUnsupported);
    }

    @Test
    void a_wrong_number_of_operands_is_a_count_mismatch() {
        assertThat(elementStatus(op(FilterOperator.Equals, lit(1))))
                .isEqualTo(StatusCodes.BadFilterOperandCountMismatch);
        assertThat(elementStatus(op(FilterOperator.Equals, lit(1), lit(1), lit(1))))
                .isEqualTo(StatusCodes.BadFilterOperandCountMismatch);
        assertThat(elementStatus(op(FilterOperator.Not, lit(true), lit(true))))
                .isEqualTo(StatusCodes.BadFilterOperandCountMismatch);
        assertThat(elementStatus(op(FilterOperator.IsNull))).isEqualTo(StatusCodes.BadFilterOperandCountMismatch);
        assertThat(elementStatus(new ContentFilterElement(FilterOperator.IsNull, null)))
                .isEqualTo(StatusCodes.BadFilterOperandCountMismatch);
        assertThat(elementStatus(op(FilterOperator.InList, lit(1))))
                .isEqualTo(StatusCodes.BadFilterOperandCountMismatch);
        assertThat(elementStatus(op(FilterOperator.Between, lit(1), lit(2))))
                .isEqualTo(StatusCodes.BadFilterOperandCountMismatch);
        assertThat(elementStatus(op(FilterOperator.OfType))).isEqualTo(StatusCodes.BadFilterOperandCountMismatch);
        assertThat(compile(op(FilterOperator.Between, lit(1), lit(2))).problems())
                .containsExactly("where clause element 0: BadFilterOperandCountMismatch (0x80C30000): Between takes 3 "
                        + "operands, got 2");
    }

    @Test
    void an_element_operand_outside_the_filter_or_to_itself_is_an_invalid_element() {
        assertThat(operandStatus(1, op(FilterOperator.And, lit(true), el(5))))
                .isEqualTo(StatusCodes.BadFilterElementInvalid);
        assertThat(operandStatus(0, op(FilterOperator.Not, el(0)))).isEqualTo(StatusCodes.BadFilterElementInvalid);
    }

    @Test
    void a_loop_of_element_operands_is_refused() {
        EventFilterEvaluator evaluator = compile(op(FilterOperator.Not, el(1)), op(FilterOperator.Not, el(2)),
                op(FilterOperator.Not, el(0)));
        ContentFilterElementResult closing = element(evaluator, 2);
        assertThat(closing.statusCode().value()).isEqualTo(StatusCodes.BadFilterOperandInvalid);
        assertThat(closing.operandStatusCodes()[0].value()).isEqualTo(StatusCodes.BadFilterElementInvalid);
        assertThat(evaluator.problems()).containsExactly(
                "where clause element 2 operand 0: BadFilterElementInvalid (0x80C40000): ElementOperand 0 closes a "
                        + "loop");
    }

    @Test
    void nesting_deeper_than_the_limit_is_refused() {
        int n = WhereClause.MAX_NESTING + 2;
        ContentFilterElement[] chain = new ContentFilterElement[n];
        for (int i = 0; i < n - 1; i++) {
            chain[i] = op(FilterOperator.Not, el(i + 1));
        }
        chain[n - 1] = op(FilterOperator.IsNull, f("Severity"));
        EventFilterEvaluator evaluator = compile(chain);
        assertThat(evaluator.status().value()).isEqualTo(StatusCodes.BadEventFilterInvalid);
        assertThat(evaluator.problems()).anyMatch(p -> p.contains("nests more than " + WhereClause.MAX_NESTING));

        ContentFilterElement[] allowed = new ContentFilterElement[WhereClause.MAX_NESTING];
        for (int i = 0; i < allowed.length - 1; i++) {
            allowed[i] = op(FilterOperator.Not, el(i + 1));
        }
        allowed[allowed.length - 1] = op(FilterOperator.IsNull, f("Severity"));
        assertThat(compile(allowed).isValid()).isTrue();
    }

    @Test
    void operands_that_are_not_usable_filter_operands_are_invalid() {
        AttributeOperand attribute = new AttributeOperand(BASE_EVENT_TYPE, null, new RelativePath(null),
                AttributeIds.Value, null);
        assertThat(operandStatus(0, op(FilterOperator.IsNull, eo(attribute))))
                .isEqualTo(StatusCodes.BadFilterOperandInvalid);
        assertThat(operandStatus(0, op(FilterOperator.IsNull, ExtensionObject.NULL)))
                .isEqualTo(StatusCodes.BadFilterOperandInvalid);
        ExtensionObject undecoded = ExtensionObject.ofBinary(NodeId.numeric(3, 77), ByteString.of(new byte[] {1}));
        assertThat(operandStatus(0, op(FilterOperator.IsNull, undecoded)))
                .isEqualTo(StatusCodes.BadFilterOperandInvalid);
        assertThat(operandStatus(0, op(FilterOperator.IsNull, eo(new EventFilter(null, null)))))
                .isEqualTo(StatusCodes.BadFilterOperandInvalid);
    }

    @Test
    void where_clause_attribute_operands_are_validated_like_select_clauses() {
        assertThat(operandStatus(1, op(FilterOperator.Equals, f("Severity"), eo(field(NodeId.numeric(9, 1), "X")))))
                .isEqualTo(StatusCodes.BadNodeIdUnknown);
        assertThat(operandStatus(0, op(FilterOperator.IsNull, eo(new SimpleAttributeOperand(BASE_EVENT_TYPE,
                new QualifiedName[] {QualifiedName.NULL}, AttributeIds.Value, null)))))
                .isEqualTo(StatusCodes.BadBrowseNameInvalid);
        assertThat(operandStatus(0, op(FilterOperator.IsNull, eo(new SimpleAttributeOperand(BASE_EVENT_TYPE,
                new QualifiedName[] {QualifiedName.of(0, "Severity")}, 0, null)))))
                .isEqualTo(StatusCodes.BadAttributeIdInvalid);
    }

    @Test
    void of_type_needs_a_known_type_as_a_node_id_literal() {
        assertThat(operandStatus(0, op(FilterOperator.OfType, lit("BaseEventType"))))
                .isEqualTo(StatusCodes.BadFilterLiteralInvalid);
        assertThat(operandStatus(0, op(FilterOperator.OfType, f("EventType"))))
                .isEqualTo(StatusCodes.BadFilterOperandInvalid);
        assertThat(operandStatus(0, op(FilterOperator.OfType, lit(NodeId.numeric(9, 1)))))
                .isEqualTo(StatusCodes.BadNodeIdUnknown);
    }

    @Test
    void a_malformed_like_pattern_is_an_invalid_literal() {
        assertThat(operandStatus(1, op(FilterOperator.Like, f("SourceName"), lit("abc\\"))))
                .isEqualTo(StatusCodes.BadFilterLiteralInvalid);
        assertThat(operandStatus(1, op(FilterOperator.Like, f("SourceName"), lit("[abc"))))
                .isEqualTo(StatusCodes.BadFilterLiteralInvalid);
    }

    @Test
    void a_bad_element_leaves_the_others_good_and_names_itself() {
        EventFilterEvaluator evaluator = compile(op(FilterOperator.And, el(1), el(2)),
                op(FilterOperator.Equals, f("Severity"), lit(1)), op(FilterOperator.Cast, lit(1), lit(2)));
        ContentFilterElementResult[] results = evaluator.result().whereClauseResult().elementResults();
        assertThat(results[0].statusCode()).isEqualTo(StatusCode.GOOD);
        assertThat(results[1].statusCode()).isEqualTo(StatusCode.GOOD);
        assertThat(results[2].statusCode().value()).isEqualTo(StatusCodes.BadFilterOperatorUnsupported);
        assertThat(evaluator.problems()).containsExactly(
                "where clause element 2: BadFilterOperatorUnsupported (0x80C20000): operator Cast is not supported");
    }

    @Test
    void a_filter_decoded_from_the_wire_compiles_and_evaluates() {
        EventFilter sent = Filters.filter(where(op(FilterOperator.And, el(1), el(2)),
                op(FilterOperator.GreaterThanOrEqual, f("Severity"), lit(Variant.ofUInt16(500))),
                op(FilterOperator.OfType, lit(BASE_EVENT_TYPE))));
        ByteBuf buf = Unpooled.buffer();
        EventFilter received;
        try {
            new UaEncoder(CodecRegistry.standard(), buf).writeExtensionObject("Filter", ExtensionObject.of(sent));
            received = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, buf)
                    .readExtensionObject("Filter").decoded(EventFilter.class);
        } finally {
            buf.release();
        }
        EventFilterEvaluator evaluator = EventFilterEvaluator.compile(received, ns0());
        assertThat(evaluator.problems()).isEmpty();
        assertThat(evaluator.matches(Filters.event(AUDIT_EVENT_TYPE, 600).build())).isTrue();
        assertThat(evaluator.matches(Filters.event(AUDIT_EVENT_TYPE, 400).build())).isFalse();
    }

    @Test
    void the_result_encodes_and_decodes() {
        EventFilterEvaluator evaluator = EventFilterEvaluator.compile(new EventFilter(
                new SimpleAttributeOperand[] {field("Severity"), field(NodeId.numeric(9, 1), "X")},
                where(op(FilterOperator.Not, el(4)), op(FilterOperator.Cast, lit(1), lit(2)))), ns0());
        ByteBuf buf = Unpooled.buffer();
        try {
            new UaEncoder(CodecRegistry.standard(), buf).writeExtensionObject("FilterResult",
                    ExtensionObject.of(evaluator.result()));
            ExtensionObject decoded = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, buf)
                    .readExtensionObject("FilterResult");
            assertThat(decoded.decoded()).isEqualTo(evaluator.result());
        } finally {
            buf.release();
        }
        List<String> expected = new ArrayList<>();
        expected.add("select clause 1: BadNodeIdUnknown (0x80340000): typeDefinitionId ns=9;i=1 is not a known "
                + "ObjectType");
        expected.add("where clause element 0 operand 0: BadFilterElementInvalid (0x80C40000): ElementOperand refers to "
                + "element 4 of a filter of 2");
        expected.add("where clause element 1: BadFilterOperatorUnsupported (0x80C20000): operator Cast is not "
                + "supported");
        assertThat(evaluator.problems()).containsExactlyElementsOf(expected);
    }
}
