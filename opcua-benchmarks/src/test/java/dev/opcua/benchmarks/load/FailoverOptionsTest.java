package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.benchmarks.load.FailoverOptions.Fault;
import java.util.List;
import org.junit.jupiter.api.Test;

class FailoverOptionsTest {

    @Test
    void defaults_kill_the_active_server_of_a_warm_pair_five_times_at_the_issues_load() {
        FailoverOptions o = FailoverOptions.parse("--scenario", "failover");

        assertThat(o.mode()).isEqualTo("warm");
        assertThat(o.fault()).isEqualTo(Fault.KILL);
        assertThat(o.kills()).isEqualTo(5);
        assertThat(o.items()).isEqualTo(1000);
        assertThat(o.rate()).isEqualTo(10_000);
        assertThat(o.durable()).isFalse();
        assertThat(o.redundant()).isTrue();
        assertThat(o.sessionTimeoutMs()).isEqualTo(120_000);
        assertThat(o.clientQueue()).as("the client's default maxQueuedNotifications").isEqualTo(10_000);
    }

    @Test
    void parses_a_network_cut_with_its_kind_and_length() {
        FailoverOptions o = FailoverOptions.parse("--fault", "cut", "--cut", "DROP", "--cut-ms", "2500", "--mode", "hot");

        assertThat(o.fault()).isEqualTo(Fault.CUT);
        assertThat(o.cut()).isEqualTo("drop");
        assertThat(o.cutMs()).isEqualTo(2500);
        assertThat(o.mode()).isEqualTo("hot");
    }

    @Test
    void hot_and_mirrored_runs_the_client_in_that_mode_on_an_embedded_postgresql_unless_given_one() {
        FailoverOptions embedded = FailoverOptions.parse("--mode", "hot-and-mirrored");
        FailoverOptions given = FailoverOptions.parse("--mode", "HOT-AND-MIRRORED", "--postgres-url",
                "jdbc:postgresql://db:5432/plant", "--postgres-user", "opcua", "--postgres-password", "secret");

        assertThat(embedded.mirrored()).isTrue();
        assertThat(embedded.redundant()).isTrue();
        assertThat(embedded.clientMode()).isEqualTo(dev.opcua.stack.client.redundancy.RedundancyMode.HOT_AND_MIRRORED);
        assertThat(embedded.postgresUrl()).as("the harness starts one").isNull();
        assertThat(given.postgresUrl()).isEqualTo("jdbc:postgresql://db:5432/plant");
        assertThat(given.postgresUser()).isEqualTo("opcua");
        assertThat(given.postgresPassword()).isEqualTo("secret");
        assertThat(FailoverOptions.parse("--mode", "hot").mirrored()).isFalse();
    }

    @Test
    void a_client_restart_times_its_session_out_while_it_is_away() {
        assertThat(FailoverOptions.parse("--fault", "client-restart", "--down-ms", "8000").sessionTimeoutMs())
                .isEqualTo(4000);
        assertThat(FailoverOptions.parse("--fault", "client-restart", "--down-ms", "1500").sessionTimeoutMs())
                .as("the server's minimum session timeout is in the order of a second").isEqualTo(1000);
    }

    @Test
    void durable_is_a_switch_without_a_value_on_one_server() {
        FailoverOptions o = FailoverOptions.parse("--mode", "none", "--durable", "--fault", "stop",
                "--durable-hours", "2");

        assertThat(o.durable()).isTrue();
        assertThat(o.durableHours()).isEqualTo(2);
        assertThat(o.fault()).isEqualTo(Fault.STOP);
        assertThat(o.redundant()).isFalse();
    }

    @Test
    void client_new_is_a_switch_for_a_client_restart_on_one_server() {
        FailoverOptions o = FailoverOptions.parse("--mode", "none", "--fault", "client-restart", "--client-new",
                "--durable");

        assertThat(o.clientNew()).isTrue();
        assertThat(o.durable()).isTrue();
        assertThatThrownBy(() -> FailoverOptions.parse("--mode", "none", "--fault", "kill", "--client-new"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--client-new needs --fault client-restart and --mode none")
                .hasMessageContaining("kill");
    }

    @Test
    void durable_in_a_pair_is_refused_naming_the_mode() {
        assertThatThrownBy(() -> FailoverOptions.parse("--durable", "--mode", "hot"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--durable needs --mode none")
                .hasMessageContaining("hot");
    }

    @Test
    void bad_values_are_refused_naming_the_option_and_what_is_allowed() {
        assertThatThrownBy(() -> FailoverOptions.parse("--fault", "unplug"))
                .hasMessage("--fault must be kill, stop, cut or client-restart, was unplug");
        assertThatThrownBy(() -> FailoverOptions.parse("--cut", "flaky"))
                .hasMessage("--cut must be blackhole or drop, was flaky");
        assertThatThrownBy(() -> FailoverOptions.parse("--cut-ms", "0"))
                .hasMessage("--cut-ms must be at least 1, was 0");
        assertThatThrownBy(() -> FailoverOptions.parse("--mode", "mirrored"))
                .hasMessageContaining("--mode must be none, cold, warm, hot or hot-and-mirrored");
        assertThatThrownBy(() -> FailoverOptions.parse("--mode", "hot", "--postgres-url", "jdbc:postgresql://db/x"))
                .hasMessageContaining("--postgres-url needs --mode hot-and-mirrored");
        assertThatThrownBy(() -> FailoverOptions.parse("--mode", "hot-and-mirrored", "--postgres-url", "db:5432"))
                .hasMessageContaining("--postgres-url must be a PostgreSQL JDBC URL");
        assertThatThrownBy(() -> FailoverOptions.parse("--mode", "hot-and-mirrored", "--postgres-user", "opcua"))
                .hasMessageContaining("--postgres-user and --postgres-password need --postgres-url");
        assertThatThrownBy(() -> FailoverOptions.parse("--reconnect-max-ms", "-1"))
                .hasMessageContaining("--reconnect-max-ms must be 0");
        assertThatThrownBy(() -> FailoverOptions.parse("--down-ms"))
                .hasMessage("missing value for --down-ms");
    }

    @Test
    void missed_bound_is_the_failover_time_plus_a_publishing_interval_at_the_rate() {
        FailoverOptions o = FailoverOptions.parse("--rate", "10000", "--publishing-ms", "100");

        assertThat(FailoverScenario.missedBound(1400, o)).isEqualTo(15_000);
        assertThat(FailoverScenario.missedBound(Double.NaN, o)).isZero();
    }

    @Test
    void percentiles_are_nearest_rank() {
        List<Double> values = List.of(5.0, 1.0, 4.0, 2.0, 3.0);

        assertThat(FailoverScenario.percentile(values, 50)).isEqualTo(3.0);
        assertThat(FailoverScenario.percentile(values, 99)).isEqualTo(5.0);
        assertThat(FailoverScenario.percentile(List.of(), 50)).isNaN();
    }

    @Test
    void the_gate_opens_only_for_a_notification_from_the_awaited_server_after_its_moment() throws Exception {
        FailoverScenario.ArrivalGate gate = new FailoverScenario.ArrivalGate();
        gate.reset();
        gate.arrived("opc.tcp://a");
        gate.arm(System.nanoTime(), "opc.tcp://b");
        gate.arrived("opc.tcp://a");
        assertThat(gate.await(System.nanoTime())).isZero();

        gate.reset();
        gate.arm(System.nanoTime(), "opc.tcp://b");
        gate.arrived("opc.tcp://b");
        assertThat(gate.await(System.nanoTime() + 1_000_000_000L)).isPositive();
    }
}
