package dev.opcua.cli;

import static dev.opcua.cli.CliTestServer.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** call, subscribe (values and events) and history (raw and processed) against our server. */
@ExtendWith(SharedServer.class)
class CallSubscribeHistoryIT {

    private final CliTestServer server = SharedServer.get();
    private final String url = server.endpointUrl();

    @Test
    void call_types_the_arguments_from_the_methods_input_arguments_and_names_the_outputs() {
        CliRun run = CliRun.of("call", url, node("Plant"), node("Plant.Add"), "2", "40");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines()).contains("  sum = 42");
    }

    @Test
    void call_as_json_gives_status_and_outputs() throws Exception {
        JsonNode result = CliRun.of("call", url, "--json", node("Plant"), node("Plant.Add"), "1", "2").json().get(0);

        assertThat(result.get("status").asText()).isEqualTo("Good");
        assertThat(result.get("outputs").get(0).asInt()).isEqualTo(3);
        assertThat(result.get("outputNames").get(0).asText()).isEqualTo("sum");
    }

    @Test
    void call_with_the_wrong_number_or_type_of_arguments_names_the_signature() {
        CliRun tooFew = CliRun.of("call", url, node("Plant"), node("Plant.Add"), "2");
        CliRun notANumber = CliRun.of("call", url, node("Plant"), node("Plant.Add"), "2", "many");

        assertThat(tooFew.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(tooFew.err()).contains("takes 2 input argument(s), 1 given", "a (i=6)", "b (i=6)");
        assertThat(notANumber.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(notANumber.err()).contains("argument 2 (b)", "'many'", "Int32");
    }

    @Test
    void subscribe_prints_a_line_per_notification_when_piped_and_stops_after_count() {
        CliRun run = CliRun.of("subscribe", url, node("Plant.Ticks"), "--interval", "100ms", "--count", "3");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines()).hasSize(3).allSatisfy(l -> assertThat(l).contains(node("Plant.Ticks") + " = ")
                .endsWith("Good"));
        assertThat(run.err()).contains("3 notifications");
    }

    @Test
    void subscribe_on_a_terminal_redraws_one_coloured_line_per_item_in_place() {
        CliRun run = CliRun.onTerminal("subscribe", url, node("Plant.Ticks"), node("Plant.Fixed"), "--interval",
                "100ms", "--count", "4");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).startsWith(node("Plant.Ticks") + " = ...\n" + node("Plant.Fixed") + " = ...\n")
                .contains("\u001b[2A\r\u001b[2K") // two lines up, each cleared and drawn again
                .contains("\u001b[32mGood\u001b[0m");
        assertThat(CliRun.onTerminal("subscribe", url, node("Plant.Ticks"), "--count", "1", "--no-color").out())
                .doesNotContain("\u001b[32m");
    }

    @Test
    void subscribe_as_json_gives_one_object_per_notification() throws Exception {
        List<JsonNode> values = CliRun.of("subscribe", url, "--json", node("Plant.Ticks"), node("Plant.Fixed"),
                "--interval", "100ms", "--count", "4").json();

        assertThat(values).hasSize(4);
        assertThat(values).extracting(v -> v.get("nodeId").asText()).contains(node("Plant.Ticks"), node("Plant.Fixed"));
        assertThat(values).allSatisfy(v -> assertThat(v.get("status").asText()).isEqualTo("Good"));
    }

    @Test
    void subscribe_with_a_duration_ends_by_itself() {
        long start = System.nanoTime();
        CliRun run = CliRun.of("subscribe", url, node("Plant.Fixed"), "--interval", "100ms", "--duration", "500ms");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines()).hasSize(1);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5_000);
    }

    @Test
    void subscribe_to_events_prints_the_servers_events() throws Exception {
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r,
                "event-reporter"));
        try {
            reporter.scheduleAtFixedRate(() -> server.server().events().report(EventNotifierRegistry.SERVER_OBJECT,
                    UaEvent.builder(NodeId.ns0(NodeIds.BaseEventType)).sourceNode(EventNotifierRegistry.SERVER_OBJECT)
                            .sourceName("Line1").message("tank full").severity(700).time(DateTime.now()).build()),
                    100, 100, TimeUnit.MILLISECONDS);

            List<JsonNode> events = CliRun.of("subscribe", url, "--events", "--json", "--interval", "100ms", "--count",
                    "2").json();

            assertThat(events).hasSize(2).allSatisfy(e -> {
                assertThat(e.get("notifier").asText()).isEqualTo("i=2253");
                assertThat(e.get("severity").asInt()).isEqualTo(700);
                assertThat(e.get("sourceName").asText()).isEqualTo("Line1");
                assertThat(e.get("message").toString()).contains("tank full");
            });
        } finally {
            reporter.shutdownNow();
        }
    }

    @Test
    void history_writes_the_raw_values_as_csv() {
        CliRun run = CliRun.of("history", url, node("Plant.Speed"), "--start", "2026-01-01T00:00:00Z", "--end",
                "2026-01-01T00:01:00Z", "--page-size", "7");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines()).hasSize(1 + CliTestServer.HISTORY);
        assertThat(run.lines().get(0)).isEqualTo("node,sourceTimestamp,serverTimestamp,value,status");
        assertThat(run.lines().get(1)).isEqualTo(node("Plant.Speed") + ",2026-01-01T00:00:00Z,2026-01-01T00:00:00Z,0.0,"
                + "Good");
        assertThat(run.lines().get(20)).startsWith(node("Plant.Speed") + ",2026-01-01T00:00:19Z,");
    }

    @Test
    void history_stops_at_max_values() {
        CliRun run = CliRun.of("history", url, node("Plant.Speed"), "--start", "2026-01-01T00:00:00Z", "--end",
                "2026-01-01T00:01:00Z", "--page-size", "3", "--max", "5");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines()).hasSize(1 + 5);
    }

    @Test
    void history_processed_gives_an_aggregate_per_interval() throws Exception {
        List<JsonNode> averages = CliRun.of("history", url, node("Plant.Speed"), "--json", "--start",
                "2026-01-01T00:00:00Z", "--end", "2026-01-01T00:00:20Z", "--processed", "Average", "--interval", "10s")
                .json();

        assertThat(averages).hasSize(2);
        assertThat(averages.get(0).get("value").asDouble()).isEqualTo(4.5); // 0..9
        assertThat(averages.get(1).get("value").asDouble()).isEqualTo(14.5); // 10..19
    }

    @Test
    void an_unknown_aggregate_lists_the_known_ones() {
        CliRun run = CliRun.of("history", url, node("Plant.Speed"), "--processed", "Mean");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("'Mean' is not an aggregate", "Average", "Maximum");
    }
}
