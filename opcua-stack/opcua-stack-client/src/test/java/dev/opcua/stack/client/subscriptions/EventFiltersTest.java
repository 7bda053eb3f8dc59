package dev.opcua.stack.client.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.LiteralOperand;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import org.junit.jupiter.api.Test;

class EventFiltersTest {

    @Test
    void select_clauses_name_the_value_of_base_event_type_fields_by_browse_name() {
        EventFilter filter = EventFilters.select("Severity", "Message");
        assertThat(filter.whereClause().elements()).as("an empty where clause: every event").isEmpty();
        assertThat(filter.selectClauses()).hasSize(2);
        SimpleAttributeOperand severity = filter.selectClauses()[0];
        assertThat(severity.typeDefinitionId()).isEqualTo(NodeId.ns0(NodeIds.BaseEventType));
        assertThat(severity.browsePath()).containsExactly(QualifiedName.of(0, "Severity"));
        assertThat(severity.attributeId()).isEqualTo(AttributeIds.Value);
        assertThat(filter.selectClauses()[1].browsePath()).containsExactly(QualifiedName.of(0, "Message"));
    }

    @Test
    void the_where_clause_compares_severity_with_AU_int16_literal() {
        EventFilter filter = EventFilters.selectWhereSeverityAtLeast(500, "Severity");
        ContentFilterElement element = filter.whereClause().elements()[0];
        assertThat(filter.whereClause().elements()).hasSize(1);
        assertThat(element.filterOperator()).isEqualTo(FilterOperator.GreaterThanOrEqual);
        assertThat(element.filterOperands()[0].decoded(SimpleAttributeOperand.class).browsePath())
                .containsExactly(QualifiedName.of(0, "Severity"));
        assertThat(element.filterOperands()[1].decoded(LiteralOperand.class).value()).isEqualTo(Variant.ofUInt16(500));
    }
}
