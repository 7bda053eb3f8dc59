package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A small {@code items} run against each bench server in a child JVM, ours and Eclipse Milo's: 4 sessions of 250
 * monitored items each, every item's variable changed by the server; every item receives every change of the
 * window, and the create rate, the heap per item and the GC pauses are reported. No timing is asserted. Raw sessions
 * hold the items, and in one run each our {@code OpcUaClient}s ({@code --client ours}) and Eclipse Milo's ({@code
 * --client milo}). The open62541 peer's run is
 * skipped where its {@code bench_server} is not built ({@code peers/open62541/build.sh}).
 */
class ItemsScenarioIT {

    @Test
    void every_item_on_our_server_receives_every_change_of_its_variable() {
        assertEveryChangeDelivered("ours");
    }

    @Test
    void every_item_on_milos_server_receives_every_change_of_its_variable() {
        assertEveryChangeDelivered("milo");
    }

    @Test
    void every_item_our_clients_hold_receives_every_change_of_its_variable() {
        Map<String, String> result = assertEveryChangeDelivered("ours", "ours");

        assertThat(result.get("client")).isEqualTo("ours");
        assertThat(result.get("client_heap_per_item_b")).matches("-?\\d+");
        assertThat(Double.parseDouble(result.get("client_cpu_us_per_op"))).isPositive();
    }

    @Test
    void every_item_milos_clients_hold_receives_every_change_of_its_variable() {
        // a queue of 5: Milo's Publish pipeline may be empty for a moment on a busy machine, and what the run
        // checks here is that its clients hold the items and are counted, not how long a stall a queue of 1 bears
        Map<String, String> result = run(List.of("--server", "ours", "--client", "milo", "--queue", "5"));

        assertThat(result.get("client")).isEqualTo("milo");
        assertThat(Long.parseLong(result.get("client_alloc_b_per_op"))).as("Milo's threads counted").isPositive();
        assertThat(Double.parseDouble(result.get("client_cpu_us_per_op"))).isPositive();
    }

    @Test
    void every_item_on_the_open62541_peer_receives_every_change_of_its_variable() {
        String peer = Stream.of(LoadOptions.peerExecutable(), "target/open62541/bench_server")
                .filter(path -> Files.isExecutable(Path.of(path))).findFirst().orElse(null);
        assumeTrue(peer != null, "no open62541 bench_server built (peers/open62541/build.sh)");

        Map<String, String> result = run(List.of("--server", "open62541", "--open62541", peer, "--client", "raw"));

        assertThat(result.get("server_heap_per_item_b")).isEqualTo("n/a");
        assertThat(Long.parseLong(result.get("server_rss_per_item_b"))).isPositive();
        assertThat(Double.parseDouble(result.get("server_cpu_us_per_op"))).isPositive();
    }

    private static Map<String, String> assertEveryChangeDelivered(String server) {
        Map<String, String> result = assertEveryChangeDelivered(server, "raw");
        assertThat(result.get("client")).isEqualTo("raw");
        return result;
    }

    private static Map<String, String> assertEveryChangeDelivered(String server, String client) {
        Map<String, String> result = run(List.of("--server", server, "--client", client, "--server-heap", "256m"));
        assertThat(result.get("server_heap_per_item_b")).matches("-?\\d+");
        assertThat(result.get("server_gc_max_pause_ms")).matches("[0-9.]+");
        return result;
    }

    /** A run of 4 x 250 items with {@code options}, asserted to deliver every change; its RESULT fields. */
    private static Map<String, String> run(List<String> options) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("--scenario", "items", "--sessions", "4",
                "--items-per-session", "250", "--duration", "3", "--warmup", "1"));
        args.addAll(options);
        int code = LoadHarness.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        String log = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as(log).isZero();
        Map<String, String> result = SessionsScenarioIT.parse(out.toString(StandardCharsets.UTF_8).strip());
        assertThat(result.get("items")).isEqualTo("1000");
        assertThat(Long.parseLong(result.get("expected"))).as(log).isPositive();
        assertThat(result.get("delivered")).as(log).isEqualTo(result.get("expected"));
        assertThat(result.get("items_short")).as(log).isEqualTo("0");
        assertThat(result.get("duplicates")).as(log).isEqualTo("0");
        assertThat(result.get("sequence_gaps")).as(log).isEqualTo("0");
        assertThat(result.get("verified")).as(log).isEqualTo("true");
        assertThat(Double.parseDouble(result.get("items_per_s"))).as(log).isPositive();
        assertThat(log).contains("created 1000 items");
        return result;
    }
}
