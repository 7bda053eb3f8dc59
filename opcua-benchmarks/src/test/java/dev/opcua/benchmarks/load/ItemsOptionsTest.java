package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ItemsOptionsTest {

    @Test
    void defaults_give_every_item_a_variable_of_its_own_and_as_many_changes_as_sampling_delivers() {
        ItemsOptions o = ItemsOptions.parse("--scenario", "items");

        assertThat(o.totalItems()).isEqualTo(10_000);
        assertThat(o.variables()).isEqualTo(10_000);
        assertThat(o.samplingMs()).isEqualTo(1000);
        assertThat(o.queueSize()).isEqualTo(1);
        assertThat(o.changesPerS()).as("each variable once per two sampling intervals").isEqualTo(5000);
        assertThat(o.serverOptions()).containsExactly("--simulate", "10000,5000", "--max-sessions", "20");
    }

    @Test
    void a_million_items_take_the_goals_hundred_thousand_changes_a_second() {
        ItemsOptions o = ItemsOptions.parse("--sessions", "1000", "--items-per-session", "1000");

        assertThat(o.totalItems()).isEqualTo(1_000_000);
        assertThat(o.changesPerS()).isEqualTo(ItemsOptions.GOAL_CHANGES_PER_S);
    }

    @Test
    void items_wrap_over_fewer_variables_in_order_across_sessions() {
        ItemsOptions o = ItemsOptions.parse("--sessions", "3", "--items-per-session", "4", "--variables", "5");

        assertThat(o.variableOf(0, 3)).isEqualTo(3);
        assertThat(o.variableOf(1, 0)).isEqualTo(4);
        assertThat(o.variableOf(2, 3)).isEqualTo(1);
    }

    @Test
    void refuses_more_changes_than_the_sampling_can_deliver_naming_the_limit() {
        assertThatThrownBy(() -> ItemsOptions.parse("--changes-per-s", "6000"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--changes-per-s 6000")
                .hasMessageContaining("at most 5000");
    }

    @Test
    void the_open62541_peer_gets_its_held_simulation_room_for_the_sessions_and_its_namespace() {
        ItemsOptions o = ItemsOptions.parse("--server", "open62541", "--open62541", "/opt/o6/bench_server",
                "--sessions", "1000");

        assertThat(o.open62541()).isEqualTo("/opt/o6/bench_server");
        assertThat(o.serverOptions()).containsExactly("--simulate", "1000000,100000", "--max-sessions", "1010",
                ChildServer.PEER_HELD_SIMULATION);
        assertThat(o.namespaceUri()).isEqualTo(LoadOptions.PEER_NAMESPACE_URI);
        assertThat(o.jvmServer()).isFalse();
    }

    @Test
    void the_open62541_peer_is_found_where_its_build_puts_it_unless_given() {
        assertThat(ItemsOptions.parse("--server", "open62541").open62541()).isEqualTo(LoadOptions.peerExecutable());
        assertThat(ItemsOptions.parse("--server", "milo").open62541()).isNull();
    }

    @Test
    void refuses_a_peer_executable_for_a_server_that_is_not_the_peer() {
        assertThatThrownBy(() -> ItemsOptions.parse("--server", "ours", "--open62541", "/opt/o6/bench_server"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--open62541 PATH goes with --server open62541");
    }

    @Test
    void refuses_an_unknown_server_naming_the_choices() {
        assertThatThrownBy(() -> ItemsOptions.parse("--server", "prosys"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--server must be ours, milo or open62541, was prosys");
    }

    @Test
    void rss_per_item_is_the_growth_from_the_sessions_to_the_idle_items_and_na_when_unknown() {
        assertThat(ItemsScenario.rssPerItem(100_000_000, 400_000_000, 1_000_000)).isEqualTo("300");
        assertThat(ItemsScenario.rssPerItem(-1, 400_000_000, 1_000_000)).isEqualTo("n/a");
    }

    @Test
    void raw_sessions_hold_the_items_unless_a_client_is_asked_for() {
        assertThat(ItemsOptions.parse("--scenario", "items").client()).isEqualTo("raw");
        assertThat(ItemsOptions.parse("--client", "OURS").client()).isEqualTo("ours");
        assertThat(ItemsOptions.parse("--client", "milo").client()).isEqualTo("milo");
    }

    @Test
    void refuses_a_client_it_cannot_drive_naming_the_choices() {
        assertThatThrownBy(() -> ItemsOptions.parse("--client", "node-opcua"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--client must be raw, ours or milo, was node-opcua");
    }

    @Test
    void refuses_a_heap_that_is_not_a_size() {
        assertThatThrownBy(() -> ItemsOptions.parse("--server-heap", "lots"))
                .hasMessageContaining("--server-heap must be a size");
    }

    @Test
    void only_its_own_scenario_is_asked_for() {
        assertThat(ItemsOptions.asked(new String[] {"--scenario", "items"})).isTrue();
        assertThat(ItemsOptions.asked(new String[] {"--scenario", "sessions", "--items", "10"})).isFalse();
    }
}
