package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.junit.jupiter.api.Test;

class LoadOptionsTest {

    private static final String URL = "opc.tcp://localhost:4841/";

    @Test
    void security_is_none_by_default() {
        LoadOptions options = LoadOptions.parse("--url", URL);

        assertThat(options.security()).isEqualTo(EndpointSecurity.NONE);
        assertThat(options.securityName()).isEqualTo("None");
        assertThat(LoadOptions.parse("--url", URL, "--security", "none").security()).isEqualTo(EndpointSecurity.NONE);
    }

    @Test
    void sign_and_encrypt_default_to_basic256sha256() {
        assertThat(LoadOptions.parse("--url", URL, "--security", "sign").security())
                .isEqualTo(new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.Sign));
        LoadOptions encrypt = LoadOptions.parse("--url", URL, "--security", "encrypt");
        assertThat(encrypt.security())
                .isEqualTo(new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt));
        assertThat(encrypt.securityName()).isEqualTo("Basic256Sha256/SignAndEncrypt");
    }

    @Test
    void the_policy_is_taken_by_name_or_uri() {
        assertThat(LoadOptions.parse("--url", URL, "--security", "encrypt", "--policy", "Aes256_Sha256_RsaPss")
                .security().policy()).isEqualTo(SecurityPolicy.Aes256_Sha256_RsaPss);
        assertThat(LoadOptions.parse("--server", "milo", "--policy", SecurityPolicy.Basic128Rsa15.uri(), "--security",
                "sign").securityName()).isEqualTo("Basic128Rsa15/Sign");
    }

    @Test
    void an_unknown_policy_is_refused_with_the_valid_names() {
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--security", "sign", "--policy", "Basic512"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Basic512")
                .hasMessageContaining("Basic128Rsa15, Basic256, Basic256Sha256, Aes128_Sha256_RsaOaep, "
                        + "Aes256_Sha256_RsaPss");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--security", "sign", "--policy", "None"))
                .hasMessageContaining("for None use --security none");
    }

    @Test
    void a_policy_without_sign_or_encrypt_is_refused() {
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--policy", "Basic256Sha256"))
                .hasMessageContaining("--policy Basic256Sha256 needs --security sign or encrypt");
    }

    @Test
    void an_unknown_security_mode_is_refused() {
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--security", "SignAndEncrypt"))
                .hasMessageContaining("--security must be none, sign or encrypt, was SignAndEncrypt");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--security"))
                .hasMessageContaining("missing value for --security");
    }

    @Test
    void the_usage_names_the_security_options() {
        assertThat(LoadOptions.USAGE).contains("--security none|sign|encrypt (none)")
                .contains("--policy Basic128Rsa15|").contains("(Basic256Sha256)");
    }

    @Test
    void the_sub_options_have_defaults() {
        LoadOptions options = LoadOptions.parse("--url", URL, "--scenario", "sub");

        assertThat(options.scenario()).isEqualTo("sub");
        assertThat(options.subscriptions()).isEqualTo(1);
        assertThat(options.items()).isEqualTo(100);
        assertThat(options.publishingMs()).isEqualTo(100);
        assertThat(options.samplingMs()).isEqualTo(100);
        assertThat(options.writeRate()).isZero();
        assertThat(options.monitoredItems()).isEqualTo(20 * 100);
        assertThat(options.monitoredNodes()).isEqualTo(1000);
    }

    @Test
    void the_sampling_interval_follows_the_publishing_interval_unless_given() {
        assertThat(LoadOptions.parse("--url", URL, "--scenario", "sub", "--publishing-ms", "250").samplingMs())
                .isEqualTo(250);
        LoadOptions options = LoadOptions.parse("--url", URL, "--scenario", "sub", "--publishing-ms", "250",
                "--sampling-ms", "0", "--subscriptions", "3", "--items", "7", "--sessions", "2", "--write-rate", "500");
        assertThat(options.samplingMs()).isZero();
        assertThat(options.subscriptions()).isEqualTo(3);
        assertThat(options.items()).isEqualTo(7);
        assertThat(options.writeRate()).isEqualTo(500);
        assertThat(options.monitoredItems()).isEqualTo(42);
        assertThat(options.monitoredNodes()).isEqualTo(42);
    }

    @Test
    void the_events_scenario_has_one_event_item_per_subscription_unless_told() {
        assertThat(LoadOptions.parse("--url", URL, "--scenario", "events").items()).isEqualTo(1);
        assertThat(LoadOptions.parse("--url", URL, "--scenario", "events", "--items", "3").items()).isEqualTo(3);
        assertThat(LoadOptions.DEFAULT_EVENT_RATE).isEqualTo(1000);
    }

    @Test
    void bad_sub_options_are_refused_by_name() {
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "sub", "--subscriptions", "0"))
                .hasMessageContaining("--subscriptions must be at least 1, was 0");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "sub", "--items", "0"))
                .hasMessageContaining("--items must be at least 1, was 0");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "sub", "--publishing-ms", "0"))
                .hasMessageContaining("--publishing-ms must be at least 1, was 0");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "sub", "--sampling-ms", "-1"))
                .hasMessageContaining("--sampling-ms must be at least 0, was -1");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "sub", "--write-rate", "0"))
                .hasMessageContaining("--write-rate must be at least 1, was 0");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "sub", "--items", "many"))
                .hasMessageContaining("--items needs an integer, was 'many'");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "alarms"))
                .hasMessageContaining("--scenario must be read, write, browse, connect, sub, events, flood, churn, "
                        + "sessions or soak, was alarms");
    }

    @Test
    void soak_options_have_defaults_and_bad_ones_are_refused_by_name() {
        LoadOptions defaults = LoadOptions.parse("--server", "ours", "--scenario", "soak");
        assertThat(defaults.soak()).isEqualTo(new SoakOptions(0, 600, 10, "soak-report"));
        assertThat(defaults.rawSessions()).isTrue();
        LoadOptions given = LoadOptions.parse("--server", "ours", "--scenario", "soak", "--rate", "1500.5",
                "--settle", "120", "--sample", "5", "--report", "/tmp/soak");
        assertThat(given.soak()).isEqualTo(new SoakOptions(1500.5, 120, 5, "/tmp/soak"));
        assertThatThrownBy(() -> LoadOptions.parse("--server", "ours", "--scenario", "soak", "--sample", "0"))
                .hasMessageContaining("--sample must be at least 1, was 0");
        assertThatThrownBy(() -> LoadOptions.parse("--server", "ours", "--scenario", "soak", "--rate", "-1"))
                .hasMessageContaining("--rate must be 0 (80 % of the measured capacity) or positive, was -1.0");
        assertThatThrownBy(() -> LoadOptions.parse("--server", "ours", "--scenario", "soak", "--rate", "fast"))
                .hasMessageContaining("--rate needs a number, was 'fast'");
        assertThat(LoadOptions.USAGE).contains("[--rate OPS (0: 80 % of the capacity measured first)]")
                .contains("[--report DIR (soak-report)]");
    }

    @Test
    void server_side_changes_ask_the_child_server_to_simulate_the_writers_rate() {
        LoadOptions writer = LoadOptions.parse("--server", "ours", "--scenario", "sub", "--sessions", "10",
                "--items", "100");
        assertThat(writer.serverChanges()).isFalse();
        assertThat(writer.childServerOptions()).isEmpty();
        LoadOptions server = LoadOptions.parse("--server", "ours", "--scenario", "sub", "--changes", "server",
                "--sessions", "10", "--items", "100");
        assertThat(server.serverChanges()).isTrue();
        assertThat(server.changesPerSecond()).isEqualTo(10_000);
        assertThat(server.childServerOptions()).containsExactly("--simulate", "1000,10000");
        assertThat(LoadOptions.parse("--server", "ours", "--scenario", "sub", "--changes", "server", "--write-rate",
                "500").childServerOptions()).containsExactly("--simulate", "1000,500");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "sub", "--changes", "device"))
                .hasMessageContaining("--changes must be writer or server, was device");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "events", "--changes", "server"))
                .hasMessageContaining("--changes server needs --scenario sub");
    }

    @Test
    void the_usage_names_the_sub_options() {
        assertThat(LoadOptions.USAGE).contains("--scenario read|write|browse|connect|sub|events")
                .contains("--subscriptions S (1)").contains("--items K (sub 100, events 1)")
                .contains("--publishing-ms P (100)")
                .contains("--sampling-ms MS (P)").contains("--write-rate W");
    }

    @Test
    void the_client_is_ours_by_default_and_milo_or_raw_on_request() {
        assertThat(LoadOptions.parse("--url", URL).client()).isEqualTo("ours");
        assertThat(LoadOptions.parse("--url", URL, "--client", "milo").clientName()).isEqualTo("milo");
        assertThat(LoadOptions.parse("--url", URL, "--client", "raw").rawSessions()).isTrue();
        assertThat(LoadOptions.parse("--url", URL, "--scenario", "sub").clientName()).isEqualTo("ours");
        assertThat(LoadOptions.parse("--url", URL, "--scenario", "sub", "--client", "milo").clientName())
                .isEqualTo("milo");
        assertThat(LoadOptions.parse("--url", URL, "--scenario", "sub", "--client", "raw").clientName())
                .isEqualTo("raw");
        assertThat(LoadOptions.parse("--url", URL, "--scenario", "events").clientName()).isEqualTo("raw");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--client", "open62541"))
                .hasMessageContaining("--client must be ours, milo or raw");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--client", "milo", "--scenario", "events"))
                .hasMessageContaining("--client milo runs read, write, browse, connect and sub");
    }

    @Test
    void the_namespace_is_urn_bench_unless_given() {
        assertThat(LoadOptions.parse("--url", URL).namespace()).isEqualTo("urn:bench");
        assertThat(LoadOptions.parse("--url", URL, "--namespace", "urn:peer:bench").namespace())
                .isEqualTo("urn:peer:bench");
    }

    @Test
    void the_open62541_peer_gets_its_executable_and_namespace_and_refuses_what_it_cannot_do() {
        LoadOptions peer = LoadOptions.parse("--server", "open62541", "--open62541", "/opt/o6/bench_server");
        assertThat(peer.open62541()).isEqualTo("/opt/o6/bench_server");
        assertThat(peer.namespace()).isEqualTo(LoadOptions.PEER_NAMESPACE_URI);
        assertThat(LoadOptions.parse("--server", "open62541").open62541()).endsWith("/bench_server");
        assertThat(LoadOptions.parse("--server", "ours").open62541()).isNull();

        assertThatThrownBy(() -> LoadOptions.parse("--server", "ours", "--open62541", "/x"))
                .hasMessageContaining("--open62541 PATH goes with --server open62541");
        assertThatThrownBy(() -> LoadOptions.parse("--server", "open62541", "--scenario", "sub", "--changes", "server"))
                .hasMessageContaining("the open62541 peer does not");
        assertThatThrownBy(() -> LoadOptions.parse("--server", "node"))
                .hasMessageContaining("--server must be ours, milo or open62541");
    }

    @Test
    void flood_needs_a_quiet_session_besides_the_flooder_and_positive_rates() {
        LoadOptions flood = LoadOptions.parse("--url", URL, "--scenario", "flood", "--quiet-rate", "5",
                "--flood-inflight", "300");
        assertThat(flood.quietRate()).isEqualTo(5);
        assertThat(flood.floodInflight()).isEqualTo(300);
        assertThat(flood.rawSessions()).isTrue();
        assertThat(flood.floodClient()).isEqualTo("session");
        assertThat(LoadOptions.parse("--url", URL, "--scenario", "flood", "--flood-client", "raw").floodClient())
                .isEqualTo("raw");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "flood", "--flood-client", "milo"))
                .hasMessageContaining("--flood-client must be session or raw, was milo");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "flood", "--sessions", "1"))
                .hasMessageContaining("--sessions of at least 2");
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--quiet-rate", "0"))
                .hasMessageContaining("--quiet-rate must be at least 1");
    }

    @Test
    void browse_reads_the_standard_nodes_unless_bench_is_asked_for() {
        assertThat(LoadOptions.parse("--url", URL, "--scenario", "browse").browseBench()).isFalse();
        assertThat(LoadOptions.parse("--url", URL, "--scenario", "browse", "--browse", "bench").browseBench()).isTrue();
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--browse", "all"))
                .hasMessageContaining("--browse must be standard or bench");
    }

    @Test
    void sessions_defaults_to_ten_items_at_one_second_sampled_twice_per_change_by_the_server() {
        LoadOptions options = LoadOptions.parse("--server", "ours", "--scenario", "sessions", "--sessions", "500");

        assertThat(options.items()).isEqualTo(10);
        assertThat(options.publishingMs()).isEqualTo(1000);
        assertThat(options.samplingMs()).isEqualTo(500);
        assertThat(options.serverChanges()).isTrue();
        assertThat(options.rawSessions()).isTrue();
        assertThat(options.childServerOptions()).containsExactly("--simulate", "1000,1000", "--max-sessions", "560");
    }

    @Test
    void sessions_needs_our_server_in_a_child_process() {
        assertThatThrownBy(() -> LoadOptions.parse("--url", URL, "--scenario", "sessions"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--scenario sessions needs --server ours");
        assertThatThrownBy(() -> LoadOptions.parse("--server", "milo", "--scenario", "sessions"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was milo");
    }
}
