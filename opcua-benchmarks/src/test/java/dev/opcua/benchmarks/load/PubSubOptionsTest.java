package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The pubsub scenario's options and arithmetic; the scenario itself is a benchmark, run by hand (README). */
class PubSubOptionsTest {

    @Test
    void defaults_publish_100_fields_every_10_ms() {
        PubSubOptions o = PubSubOptions.parse("--scenario", "pubsub", "--broker", "tcp://127.0.0.1:1883");

        assertThat(o.subscribers()).isEqualTo(10);
        assertThat(o.fields()).isEqualTo(100);
        assertThat(o.valuesPerSecond()).isEqualTo(10_000);
        assertThat(o.qos()).isEqualTo(1);
        assertThat(o.encodingName()).isEqualTo("json");
        assertThat(o.publishingInterval()).isEqualTo(Duration.ofMillis(10));
        assertThat(o.startMosquitto()).isFalse();
    }

    @Test
    void the_interval_follows_fields_and_rate() {
        PubSubOptions o = PubSubOptions.parse("--scenario", "pubsub", "--start-mosquitto", "--mosquitto",
                "/bin/true", "--fields", "10", "--values-per-s", "2000", "--encoding", "UADP", "--qos", "0",
                "--subscribers", "100");

        assertThat(o.publishingInterval()).isEqualTo(Duration.ofMillis(5));
        assertThat(o.json()).isFalse();
        assertThat(o.qos()).isZero();
        assertThat(o.subscribers()).isEqualTo(100);
        assertThat(o.startMosquitto()).isTrue();
        assertThat(o.mosquitto()).isEqualTo("/bin/true");
    }

    @Test
    void bad_combinations_are_refused() {
        assertThatThrownBy(() -> PubSubOptions.parse("--scenario", "pubsub"))
                .hasMessageContaining("--broker and --start-mosquitto");
        assertThatThrownBy(() -> PubSubOptions.parse("--broker", "tcp://h:1", "--start-mosquitto"))
                .hasMessageContaining("exactly one");
        assertThatThrownBy(() -> PubSubOptions.parse("--broker", "tcp://h:1", "--qos", "2"))
                .hasMessageContaining("--qos");
        assertThatThrownBy(() -> PubSubOptions.parse("--broker", "tcp://h:1", "--encoding", "xml"))
                .hasMessageContaining("--encoding");
        // one field at 10,000 values/s would need a 0.1 ms interval
        assertThatThrownBy(() -> PubSubOptions.parse("--broker", "tcp://h:1", "--fields", "1"))
                .hasMessageContaining("at most every 1 ms");
        assertThatThrownBy(() -> PubSubOptions.parse("--broker", "tcp://h:1", "--sessions", "3"))
                .hasMessageContaining("unknown option");
    }

    @Test
    void the_harness_sends_pubsub_to_its_own_options() {
        assertThat(LoadHarness.isPubSub(new String[] {"--scenario", "pubsub", "--start-mosquitto"})).isTrue();
        assertThat(LoadHarness.isPubSub(new String[] {"--scenario", "sub", "--server", "ours"})).isFalse();
    }

    @Test
    void expected_and_lost_count_every_field_of_every_message_at_every_subscriber() {
        PubSubScenario.Counts all = new PubSubScenario.Counts(6000, 100, 100, 60_000_000, 0);
        assertThat(all.expected()).isEqualTo(60_000_000);
        assertThat(all.lost()).isZero();

        PubSubScenario.Counts short1 = new PubSubScenario.Counts(6000, 100, 100, 59_999_900, 3);
        assertThat(short1.lost()).isEqualTo(100);
    }

    @Test
    void the_data_set_alternates_double_and_uint32() {
        var set = PubSubScenario.dataSet(3);
        assertThat(set.fields()).extracting(f -> f.builtInType().name()).containsExactly("Double", "UInt32",
                "Double");
    }

    @Test
    void the_broker_version_is_read_from_mosquittos_help() {
        assertThat(MosquittoBroker.parseVersion("mosquitto version 2.0.11\n\nmosquitto is an MQTT v5.0 broker."))
                .isEqualTo("mosquitto-2.0.11");
        assertThat(MosquittoBroker.parseVersion("something else")).isEqualTo("mosquitto");
        assertThat(MosquittoBroker.config(1883, 0, 100_000)).contains("listener 1883 127.0.0.1",
                "max_inflight_messages 0", "max_queued_messages 100000", "persistence false");
    }
}
