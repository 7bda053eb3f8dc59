package dev.opcua.stack.history.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link JdbcHistoryOptions} checks what it is given without a database. */
class JdbcHistoryOptionsTest {

    @Test
    void bad_table_names_are_refused_before_any_sql_runs() {
        assertThatThrownBy(() -> JdbcHistoryOptions.DEFAULT.withTable("history; DROP TABLE x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("history table name");
    }
}
