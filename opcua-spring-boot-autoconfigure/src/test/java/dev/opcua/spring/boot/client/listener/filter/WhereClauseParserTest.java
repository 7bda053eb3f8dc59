package dev.opcua.spring.boot.client.listener.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.ElementOperand;
import dev.opcua.stack.core.types.structured.LiteralOperand;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import org.junit.jupiter.api.Test;

/** The where clauses of Part 4, 7.7 ContentFilters that event listeners write as text. */
class WhereClauseParserTest {

    @Test
    void blank_clause_is_a_filter_without_elements() {
        assertThat(WhereClauseParser.parse("").elements()).isEmpty();
        assertThat(WhereClauseParser.parse("   ").elements()).isEmpty();
        assertThat(WhereClauseParser.parse(null).elements()).isEmpty();
    }

    @Test
    void comparison_is_one_element_of_field_and_literal() {
        ContentFilterElement[] elements = WhereClauseParser.parse("Severity > 500").elements();

        assertThat(elements).hasSize(1);
        assertThat(elements[0].filterOperator()).isEqualTo(FilterOperator.GreaterThan);
        assertThat(field(elements[0], 0).browsePath()).containsExactly(QualifiedName.of(0, "Severity"));
        assertThat(literal(elements[0], 1)).isEqualTo(Variant.ofInt32(500));
    }

    @Test
    void every_operator_maps_to_its_filter_operator() {
        assertThat(operatorOf("Severity = 1")).isEqualTo(FilterOperator.Equals);
        assertThat(operatorOf("Severity < 1")).isEqualTo(FilterOperator.LessThan);
        assertThat(operatorOf("Severity <= 1")).isEqualTo(FilterOperator.LessThanOrEqual);
        assertThat(operatorOf("Severity > 1")).isEqualTo(FilterOperator.GreaterThan);
        assertThat(operatorOf("Severity >= 1")).isEqualTo(FilterOperator.GreaterThanOrEqual);
    }

    @Test
    void not_equals_is_not_of_equals() {
        ContentFilterElement[] elements = WhereClauseParser.parse("SourceName != 'Pump'").elements();

        assertThat(elements).hasSize(2);
        assertThat(elements[0].filterOperator()).isEqualTo(FilterOperator.Not);
        assertThat(elementIndex(elements[0], 0)).isEqualTo(1);
        assertThat(elements[1].filterOperator()).isEqualTo(FilterOperator.Equals);
        assertThat(literal(elements[1], 1)).isEqualTo(Variant.ofString("Pump"));
    }

    @Test
    void literals_are_int32_int64_double_string_and_boolean() {
        assertThat(literal(WhereClauseParser.parse("A = -7").elements()[0], 1)).isEqualTo(Variant.ofInt32(-7));
        assertThat(literal(WhereClauseParser.parse("A = 5000000000").elements()[0], 1))
                .isEqualTo(Variant.ofInt64(5_000_000_000L));
        assertThat(literal(WhereClauseParser.parse("A = 2.5").elements()[0], 1)).isEqualTo(Variant.ofDouble(2.5));
        assertThat(literal(WhereClauseParser.parse("A = 1e3").elements()[0], 1)).isEqualTo(Variant.ofDouble(1000));
        assertThat(literal(WhereClauseParser.parse("A = 'it''s'").elements()[0], 1))
                .isEqualTo(Variant.ofString("it's"));
        assertThat(literal(WhereClauseParser.parse("A = TRUE").elements()[0], 1)).isEqualTo(Variant.ofBoolean(true));
        assertThat(literal(WhereClauseParser.parse("A = false").elements()[0], 1).type())
                .isEqualTo(BuiltinType.Boolean);
    }

    @Test
    void and_binds_tighter_than_or_and_the_root_is_element_zero() {
        // a or (b and c)
        ContentFilterElement[] elements = WhereClauseParser.parse("Severity > 800 or Severity > 100 and "
                + "SourceName = 'Line1'").elements();

        assertThat(elements).extracting(ContentFilterElement::filterOperator).containsExactly(FilterOperator.Or,
                FilterOperator.GreaterThan, FilterOperator.And, FilterOperator.GreaterThan, FilterOperator.Equals);
        assertThat(elementIndex(elements[0], 0)).isEqualTo(1);
        assertThat(elementIndex(elements[0], 1)).isEqualTo(2);
        assertThat(elementIndex(elements[2], 0)).isEqualTo(3);
        assertThat(elementIndex(elements[2], 1)).isEqualTo(4);
    }

    @Test
    void parentheses_and_not_group() {
        ContentFilterElement[] elements = WhereClauseParser.parse("not (Severity < 100 OR Severity > 900) AND "
                + "Message = 'x'").elements();

        assertThat(elements).extracting(ContentFilterElement::filterOperator).containsExactly(FilterOperator.And,
                FilterOperator.Not, FilterOperator.Or, FilterOperator.LessThan, FilterOperator.GreaterThan,
                FilterOperator.Equals);
        assertThat(elementIndex(elements[1], 0)).isEqualTo(2);
        assertThat(elementIndex(elements[0], 1)).isEqualTo(5);
    }

    @Test
    void field_paths_select_fields_of_subtypes() {
        SimpleAttributeOperand field = field(WhereClauseParser.parse("EnabledState/Id = true").elements()[0], 0);

        assertThat(field.browsePath()).containsExactly(QualifiedName.of(0, "EnabledState"), QualifiedName.of(0, "Id"));
    }

    @Test
    void operands_refer_to_existing_elements_only() {
        ContentFilter filter = WhereClauseParser.parse("(A = 1 or B != 2) and not C >= 3 and D <= 'x'");
        int n = filter.elements().length;

        for (ContentFilterElement element : filter.elements()) {
            for (ExtensionObject operand : element.filterOperands()) {
                if (operand.decoded() instanceof ElementOperand e) {
                    assertThat(e.index()).isBetween(1L, n - 1L);
                }
            }
        }
    }

    @Test
    void missing_operator_names_the_position_and_the_field() {
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("Severity 500"))
                .satisfies(e -> {
                    assertThat(e.position()).isEqualTo(9);
                    assertThat(e.getMessage()).contains("expected a comparison operator", "after the field 'Severity'",
                            "found '500'", "at position 9");
                });
    }

    @Test
    void unquoted_text_is_refused_with_a_hint() {
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("SourceName = Pump"))
                .satisfies(e -> {
                    assertThat(e.position()).isEqualTo(13);
                    assertThat(e.getMessage()).contains("found 'Pump'", "single quotes");
                });
    }

    @Test
    void unclosed_quote_parenthesis_and_trailing_text_are_refused() {
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("Message = 'abc"))
                .satisfies(e -> assertThat(e.position()).isEqualTo(10));
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("(Severity > 1"))
                .satisfies(e -> {
                    assertThat(e.position()).isEqualTo(13);
                    assertThat(e.getMessage()).contains("expected ')'", "found the end of the clause");
                });
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("Severity > 1 Severity < 2"))
                .satisfies(e -> {
                    assertThat(e.position()).isEqualTo(13);
                    assertThat(e.getMessage()).contains("expected 'and', 'or'");
                });
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("Severity > 1)"))
                .withMessageContaining("unbalanced ')'");
    }

    @Test
    void missing_literal_field_or_operand_are_refused() {
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("Severity >"))
                .withMessageContaining("found the end of the clause");
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("> 5"))
                .satisfies(e -> assertThat(e.position()).isZero());
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("Severity > 5 and"))
                .satisfies(e -> assertThat(e.position()).isEqualTo(16));
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("Severity > 5x"))
                .withMessageContaining("'5x' is not a number");
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("Severity ! 5"))
                .withMessageContaining("comparison operator");
    }

    @Test
    void message_shows_the_text_with_a_caret() {
        assertThatExceptionOfType(WhereClauseSyntaxException.class)
                .isThrownBy(() -> WhereClauseParser.parse("Severity >> 5"))
                .satisfies(e -> assertThat(e.position()).isEqualTo(10))
                .withMessageEndingWith("  Severity >> 5\n" + " ".repeat(2 + 10) + "^");
    }

    private static FilterOperator operatorOf(String clause) {
        return WhereClauseParser.parse(clause).elements()[0].filterOperator();
    }

    private static SimpleAttributeOperand field(ContentFilterElement element, int operand) {
        return (SimpleAttributeOperand) element.filterOperands()[operand].decoded();
    }

    private static Variant literal(ContentFilterElement element, int operand) {
        return ((LiteralOperand) element.filterOperands()[operand].decoded()).value();
    }

    private static long elementIndex(ContentFilterElement element, int operand) {
        return ((ElementOperand) element.filterOperands()[operand].decoded()).index();
    }
}
