package dev.opcua.stack.server.subscriptions.events;

import static dev.opcua.stack.server.subscriptions.events.Filters.AUDIT_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.AUDIT_SECURITY_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.BASE_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.CONDITION_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.SYSTEM_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.el;
import static dev.opcua.stack.server.subscriptions.events.Filters.event;
import static dev.opcua.stack.server.subscriptions.events.Filters.f;
import static dev.opcua.stack.server.subscriptions.events.Filters.lit;
import static dev.opcua.stack.server.subscriptions.events.Filters.ns0;
import static dev.opcua.stack.server.subscriptions.events.Filters.op;
import static dev.opcua.stack.server.subscriptions.events.Filters.where;
import static dev.opcua.stack.server.subscriptions.events.WhereClause.FALSE;
import static dev.opcua.stack.server.subscriptions.events.WhereClause.NULL;
import static dev.opcua.stack.server.subscriptions.events.WhereClause.TRUE;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.And;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.Between;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.Equals;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.GreaterThan;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.GreaterThanOrEqual;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.InList;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.IsNull;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.LessThan;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.LessThanOrEqual;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.Like;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.Not;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.OfType;
import static dev.opcua.stack.core.types.enumerated.FilterOperator.Or;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each FilterOperator of Part 4, 7.7.3 with its TRUE, FALSE and NULL outcomes, and nesting through ElementOperands. */
class WhereClauseOperatorsTest {

    private static final Variant NULL_LITERAL = Variant.NULL;

    /** Severity 500, SourceName "Server", Message "test event", extra Int32 field Count = 7 and Double Ratio = 0.5. */
    private static final UaEvent EVENT = event(500)
            .field("Count", Variant.ofInt32(7))
            .field("Ratio", Variant.ofDouble(0.5))
            .build();

    private static int eval(UaEvent event, ContentFilterElement... elements) {
        List<String> problems = new ArrayList<>();
        WhereClause.Compilation c = WhereClause.compile(where(elements), ns0(), problems);
        assertThat(problems).isEmpty();
        assertThat(c.valid()).isTrue();
        return c.clause().evaluate(event);
    }

    private static int eval(ContentFilterElement... elements) {
        return eval(EVENT, elements);
    }

    @Test
    void equals_is_true_for_equal_values_false_for_others_and_null_for_a_missing_operand() {
        assertThat(eval(op(Equals, f("Severity"), lit(Variant.ofUInt16(500))))).isEqualTo(TRUE);
        assertThat(eval(op(Equals, f("Severity"), lit(Variant.ofUInt16(400))))).isEqualTo(FALSE);
        assertThat(eval(op(Equals, f("SourceName"), lit("Server")))).isEqualTo(TRUE);
        assertThat(eval(op(Equals, f("NoSuchField"), lit(1)))).isEqualTo(NULL);
        assertThat(eval(op(Equals, f("Severity"), lit(NULL_LITERAL)))).isEqualTo(NULL);
    }

    @Test
    void equals_without_an_implicit_conversion_is_false() {
        // String -> number is not implicit: "500" is not 500.
        assertThat(eval(op(Equals, f("Severity"), lit("500")))).isEqualTo(FALSE);
        assertThat(eval(op(Equals, f("EventType"), lit(500)))).isEqualTo(FALSE);
    }

    @Test
    void equals_compares_event_type_with_a_node_id_or_expanded_node_id_literal() {
        assertThat(eval(op(Equals, f("EventType"), lit(BASE_EVENT_TYPE)))).isEqualTo(TRUE);
        assertThat(eval(op(Equals, f("EventType"), lit(ExpandedNodeId.of(BASE_EVENT_TYPE))))).isEqualTo(TRUE);
        assertThat(eval(op(Equals, f("EventType"), lit(AUDIT_EVENT_TYPE)))).isEqualTo(FALSE);
    }

    @Test
    void equals_compares_message_text_with_a_string() {
        assertThat(eval(op(Equals, f("Message"), lit("test event")))).isEqualTo(TRUE);
        assertThat(eval(op(Equals, f("Message"), lit(LocalizedText.of("test event"))))).isEqualTo(TRUE);
        assertThat(eval(op(Equals, f("Message"), lit("other")))).isEqualTo(FALSE);
    }

    @Test
    void is_null_is_true_for_missing_fields_and_null_literals_only() {
        assertThat(eval(op(IsNull, f("NoSuchField")))).isEqualTo(TRUE);
        assertThat(eval(op(IsNull, lit(NULL_LITERAL)))).isEqualTo(TRUE);
        assertThat(eval(op(IsNull, f("Severity")))).isEqualTo(FALSE);
    }

    @Test
    void ordering_operators_compare_numbers_and_are_null_with_a_null_operand() {
        assertThat(eval(op(GreaterThan, f("Severity"), lit(499)))).isEqualTo(TRUE);
        assertThat(eval(op(GreaterThan, f("Severity"), lit(500)))).isEqualTo(FALSE);
        assertThat(eval(op(GreaterThan, f("NoSuchField"), lit(500)))).isEqualTo(NULL);
        assertThat(eval(op(LessThan, f("Severity"), lit(501)))).isEqualTo(TRUE);
        assertThat(eval(op(LessThan, f("Severity"), lit(500)))).isEqualTo(FALSE);
        assertThat(eval(op(LessThan, lit(NULL_LITERAL), lit(500)))).isEqualTo(NULL);
        assertThat(eval(op(GreaterThanOrEqual, f("Severity"), lit(500)))).isEqualTo(TRUE);
        assertThat(eval(op(GreaterThanOrEqual, f("Severity"), lit(501)))).isEqualTo(FALSE);
        assertThat(eval(op(GreaterThanOrEqual, f("Severity"), lit(NULL_LITERAL)))).isEqualTo(NULL);
        assertThat(eval(op(LessThanOrEqual, f("Severity"), lit(500)))).isEqualTo(TRUE);
        assertThat(eval(op(LessThanOrEqual, f("Severity"), lit(499)))).isEqualTo(FALSE);
        assertThat(eval(op(LessThanOrEqual, f("NoSuchField"), lit(1)))).isEqualTo(NULL);
    }

    @Test
    void ordering_operators_compare_strings_ordinally_and_refuse_unordered_types() {
        assertThat(eval(op(GreaterThan, f("SourceName"), lit("Aardvark")))).isEqualTo(TRUE);
        assertThat(eval(op(LessThan, f("SourceName"), lit("Aardvark")))).isEqualTo(FALSE);
        // NodeIds have no order: FALSE, not an error.
        assertThat(eval(op(GreaterThan, f("EventType"), lit(NodeId.ns0(1))))).isEqualTo(FALSE);
    }

    @Test
    void numeric_comparisons_convert_between_int32_double_and_u_int16() {
        // Severity is a UInt16, Count an Int32, Ratio a Double.
        assertThat(eval(op(Equals, f("Severity"), lit(500)))).isEqualTo(TRUE);
        assertThat(eval(op(Equals, f("Severity"), lit(500.0)))).isEqualTo(TRUE);
        assertThat(eval(op(LessThan, f("Severity"), lit(500.25)))).isEqualTo(TRUE);
        assertThat(eval(op(GreaterThan, f("Count"), lit(Variant.ofUInt16(6))))).isEqualTo(TRUE);
        assertThat(eval(op(Equals, f("Count"), lit(7.0)))).isEqualTo(TRUE);
        assertThat(eval(op(LessThan, f("Ratio"), lit(1)))).isEqualTo(TRUE);
        assertThat(eval(op(GreaterThan, f("Ratio"), lit(Variant.ofUInt16(0))))).isEqualTo(TRUE);
        assertThat(eval(op(LessThan, f("Count"), f("Severity")))).isEqualTo(TRUE);
        assertThat(eval(op(Equals, f("Severity"), lit(Variant.ofInt64(500L))))).isEqualTo(TRUE);
        assertThat(eval(op(Equals, f("Severity"), lit(Variant.ofFloat(500f))))).isEqualTo(TRUE);
    }

    @Test
    void a_conversion_out_of_range_makes_the_comparison_false() {
        // Int32 has precedence over UInt32: 3,000,000,000 does not convert, so neither > nor < holds.
        assertThat(eval(op(GreaterThan, lit(Variant.ofUInt32(3_000_000_000L)), lit(5)))).isEqualTo(FALSE);
        assertThat(eval(op(LessThan, lit(Variant.ofUInt32(3_000_000_000L)), lit(5)))).isEqualTo(FALSE);
        assertThat(eval(op(GreaterThan, lit(Variant.ofUInt32(3_000_000L)), lit(5)))).isEqualTo(TRUE);
    }

    @Test
    void like_matches_patterns_on_strings_and_texts() {
        assertThat(eval(op(Like, f("SourceName"), lit("Ser%")))).isEqualTo(TRUE);
        assertThat(eval(op(Like, f("SourceName"), lit("S_rv[a-z]r")))).isEqualTo(TRUE);
        assertThat(eval(op(Like, f("SourceName"), lit("x%")))).isEqualTo(FALSE);
        assertThat(eval(op(Like, f("Message"), lit("%event")))).isEqualTo(TRUE);
        assertThat(eval(op(Like, f("NoSuchField"), lit("%")))).isEqualTo(NULL);
        // Not a String: FALSE (Part 4, 7.7.3).
        assertThat(eval(op(Like, f("Severity"), lit("5%")))).isEqualTo(FALSE);
        // A pattern from a field is compiled when evaluated.
        assertThat(eval(op(Like, f("SourceName"), f("SourceName")))).isEqualTo(TRUE);
    }

    @Test
    void not_inverts_booleans_and_keeps_null() {
        assertThat(eval(op(Not, el(1)), op(Equals, f("Severity"), lit(500)))).isEqualTo(FALSE);
        assertThat(eval(op(Not, el(1)), op(Equals, f("Severity"), lit(1)))).isEqualTo(TRUE);
        assertThat(eval(op(Not, el(1)), op(Equals, f("NoSuchField"), lit(1)))).isEqualTo(NULL);
        assertThat(eval(op(Not, lit(false)))).isEqualTo(TRUE);
        // Not a Boolean: NULL.
        assertThat(eval(op(Not, lit(1)))).isEqualTo(NULL);
    }

    @Test
    void and_follows_the_three_valued_truth_table() {
        Variant t = Variant.ofBoolean(true);
        Variant f = Variant.ofBoolean(false);
        Variant n = NULL_LITERAL;
        assertThat(eval(op(And, lit(t), lit(t)))).isEqualTo(TRUE);
        assertThat(eval(op(And, lit(t), lit(f)))).isEqualTo(FALSE);
        assertThat(eval(op(And, lit(f), lit(t)))).isEqualTo(FALSE);
        assertThat(eval(op(And, lit(f), lit(f)))).isEqualTo(FALSE);
        assertThat(eval(op(And, lit(t), lit(n)))).isEqualTo(NULL);
        assertThat(eval(op(And, lit(n), lit(t)))).isEqualTo(NULL);
        assertThat(eval(op(And, lit(f), lit(n)))).isEqualTo(FALSE);
        assertThat(eval(op(And, lit(n), lit(f)))).isEqualTo(FALSE);
        assertThat(eval(op(And, lit(n), lit(n)))).isEqualTo(NULL);
    }

    @Test
    void or_follows_the_three_valued_truth_table() {
        Variant t = Variant.ofBoolean(true);
        Variant f = Variant.ofBoolean(false);
        Variant n = NULL_LITERAL;
        assertThat(eval(op(Or, lit(t), lit(t)))).isEqualTo(TRUE);
        assertThat(eval(op(Or, lit(t), lit(f)))).isEqualTo(TRUE);
        assertThat(eval(op(Or, lit(f), lit(t)))).isEqualTo(TRUE);
        assertThat(eval(op(Or, lit(f), lit(f)))).isEqualTo(FALSE);
        assertThat(eval(op(Or, lit(t), lit(n)))).isEqualTo(TRUE);
        assertThat(eval(op(Or, lit(n), lit(t)))).isEqualTo(TRUE);
        assertThat(eval(op(Or, lit(f), lit(n)))).isEqualTo(NULL);
        assertThat(eval(op(Or, lit(n), lit(f)))).isEqualTo(NULL);
        assertThat(eval(op(Or, lit(n), lit(n)))).isEqualTo(NULL);
    }

    @Test
    void in_list_is_true_when_any_item_equals_the_first_operand() {
        assertThat(eval(op(InList, f("Severity"), lit(100), lit(500), lit(900)))).isEqualTo(TRUE);
        assertThat(eval(op(InList, f("Severity"), lit(100), lit(900)))).isEqualTo(FALSE);
        assertThat(eval(op(InList, f("Severity"), lit(500.0)))).isEqualTo(TRUE);
        assertThat(eval(op(InList, f("Severity"), lit(NULL_LITERAL), lit(500)))).isEqualTo(TRUE);
        assertThat(eval(op(InList, f("NoSuchField"), lit(1), lit(2)))).isEqualTo(NULL);
        assertThat(eval(op(InList, f("EventType"), lit(AUDIT_EVENT_TYPE), lit(BASE_EVENT_TYPE)))).isEqualTo(TRUE);
    }

    @Test
    void between_is_inclusive_on_both_ends() {
        assertThat(eval(op(Between, f("Severity"), lit(100), lit(600)))).isEqualTo(TRUE);
        assertThat(eval(op(Between, f("Severity"), lit(500), lit(500.0)))).isEqualTo(TRUE);
        assertThat(eval(op(Between, f("Severity"), lit(600), lit(900)))).isEqualTo(FALSE);
        assertThat(eval(op(Between, f("Severity"), lit(NULL_LITERAL), lit(900)))).isEqualTo(NULL);
        assertThat(eval(op(Between, f("Severity"), lit("100"), lit(900)))).isEqualTo(FALSE);
    }

    @Test
    void of_type_is_true_for_the_type_and_its_subtypes_from_namespace0() {
        UaEvent audit = event(AUDIT_SECURITY_EVENT_TYPE, 100).build();
        assertThat(eval(audit, op(OfType, lit(AUDIT_SECURITY_EVENT_TYPE)))).isEqualTo(TRUE);
        assertThat(eval(audit, op(OfType, lit(AUDIT_EVENT_TYPE)))).isEqualTo(TRUE);
        assertThat(eval(audit, op(OfType, lit(BASE_EVENT_TYPE)))).isEqualTo(TRUE);
        assertThat(eval(audit, op(OfType, lit(SYSTEM_EVENT_TYPE)))).isEqualTo(FALSE);
        assertThat(eval(EVENT, op(OfType, lit(AUDIT_EVENT_TYPE)))).isEqualTo(FALSE);
        assertThat(eval(event(CONDITION_TYPE, 1).build(), op(OfType, lit(SYSTEM_EVENT_TYPE)))).isEqualTo(FALSE);
    }

    @Test
    void an_event_of_a_type_the_tree_does_not_know_is_still_a_base_event() {
        UaEvent custom = event(NodeId.numeric(7, 42), 1).build();
        assertThat(eval(custom, op(OfType, lit(BASE_EVENT_TYPE)))).isEqualTo(TRUE);
        assertThat(eval(custom, op(OfType, lit(AUDIT_EVENT_TYPE)))).isEqualTo(FALSE);
    }

    @Test
    void severity_at_least500_and_of_type_base_event_type_as_milo_writes_it() {
        ContentFilterElement[] clause = {
            op(And, el(1), el(2)),
            op(GreaterThanOrEqual, f("Severity"), lit(Variant.ofUInt16(500))),
            op(OfType, lit(BASE_EVENT_TYPE))
        };
        assertThat(eval(event(500).build(), clause)).isEqualTo(TRUE);
        assertThat(eval(event(AUDIT_EVENT_TYPE, 999).build(), clause)).isEqualTo(TRUE);
        assertThat(eval(event(499).build(), clause)).isEqualTo(FALSE);
    }

    @Test
    void nested_and_or_not_combine_through_element_operands() {
        // (Severity > 800 OR SourceName Like "Ser%") AND NOT (Count = 7)
        ContentFilterElement[] clause = {
            op(And, el(1), el(4)),
            op(Or, el(2), el(3)),
            op(GreaterThan, f("Severity"), lit(800)),
            op(Like, f("SourceName"), lit("Ser%")),
            op(Not, el(5)),
            op(Equals, f("Count"), lit(7))
        };
        assertThat(eval(clause)).isEqualTo(FALSE);
        assertThat(eval(event(900).field("Count", Variant.ofInt32(8)).build(), clause)).isEqualTo(TRUE);
        // Count missing: Equals is NULL, Not NULL is NULL, TRUE AND NULL is NULL.
        assertThat(eval(event(900).build(), clause)).isEqualTo(NULL);
    }

    @Test
    void elements_may_be_shared_and_refer_to_earlier_elements() {
        // Element 2 is used by elements 0 and 1; element 1 sits before element 3 which it uses.
        ContentFilterElement[] clause = {
            op(And, el(2), el(3)),
            op(Not, el(2)),
            op(Equals, f("Severity"), lit(500)),
            op(Not, el(1))
        };
        assertThat(eval(clause)).isEqualTo(TRUE);
        assertThat(eval(event(1).build(), clause)).isEqualTo(FALSE);
    }

    @Test
    void a_diamond_of_shared_elements_is_evaluated_once_per_element() {
        // 40 levels, each And(next, next): without memoizing this would take 2^40 evaluations.
        int levels = 40;
        ContentFilterElement[] clause = new ContentFilterElement[levels + 1];
        for (int i = 0; i < levels; i++) {
            clause[i] = op(And, el(i + 1), el(i + 1));
        }
        clause[levels] = op(Equals, f("Severity"), lit(500));
        long start = System.nanoTime();
        assertThat(eval(clause)).isEqualTo(TRUE);
        assertThat(System.nanoTime() - start).isLessThan(1_000_000_000L);
    }

    @Test
    void elements_unreachable_from_the_first_are_not_evaluated() {
        assertThat(eval(op(Equals, f("Severity"), lit(500)), op(Equals, f("NoSuchField"), lit(1)))).isEqualTo(TRUE);
    }
}
