package dev.opcua.sample.server.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PromQlTest {

    @Test
    void names_come_from_selectors_and_not_from_functions_labels_ranges_or_grouping() {
        assertThat(PromQl.metricNames("histogram_quantile(0.99, sum by (service, le) "
                + "(rate(opcua_server_requests_seconds_bucket{application=~\"$application\", le!=\"+Inf\"}"
                + "[$__rate_interval])))"))
                .containsExactly("opcua_server_requests_seconds_bucket");
    }

    @Test
    void both_sides_of_a_binary_expression_count_and_numbers_do_not() {
        assertThat(PromQl.metricNames("sum without (instance) (rate(a_sum[1m])) / on (job) group_left "
                + "sum(rate(a_count[5m] offset 1h)) * 1e3 + min by (instance) (up) / 86400"))
                .containsExactly("a_sum", "a_count", "up");
    }

    @Test
    void a_string_that_looks_like_a_name_is_not_a_name() {
        assertThat(PromQl.metricNames("label_replace(opcua_client_session_state, \"x\", \"sum\", \"y\", \"(z)\")"))
                .containsExactly("opcua_client_session_state");
    }

    @Test
    void variables_are_replaced_in_every_grafana_form_and_a_missing_one_is_named() {
        assertThat(PromQl.substitute("rate(m{a=~\"$app\", b=\"${inst}\", c=\"[[conn]]\"}[$__rate_interval])",
                Map.of("app", "plant", "inst", "h:1", "conn", "plant", "__rate_interval", "1m")))
                .isEqualTo("rate(m{a=~\"plant\", b=\"h:1\", c=\"plant\"}[1m])");
        assertThatIllegalArgumentException().isThrownBy(() -> PromQl.substitute("m{a=\"$missing\"}", Map.of()))
                .withMessageContaining("$missing");
    }

    @Test
    void a_label_values_query_gives_its_selector_and_label() {
        assertThat(PromQl.labelValues("label_values(opcua_server_sessions{application=~\"$application\"}, instance)"))
                .isEqualTo(Map.entry("opcua_server_sessions{application=~\"$application\"}", "instance"));
    }
}
