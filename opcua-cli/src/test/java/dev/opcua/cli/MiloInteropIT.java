package dev.opcua.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.opcua.stack.client.testing.MiloPeerServer;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The commands against an independent peer, an Eclipse Milo 1.1.2 server ({@link MiloPeerServer}, the client's
 * interop fixture): endpoints, browse paged by Milo's continuation points, read, write, call, subscribe to values
 * and events, over None with an anonymous session.
 */
class MiloInteropIT {

    private static final int MANY = 250;
    private static MiloPeerServer milo;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        milo = MiloPeerServer.builder().manyVariables(MANY).maxReferencesPerBrowse(100).start();
        url = milo.endpointUrl();
    }

    @AfterAll
    static void stop() {
        milo.close();
    }

    private static String node(String id) {
        return "nsu=" + MiloPeerServer.NAMESPACE_URI + ";s=" + id;
    }

    @Test
    void endpoints_lists_milos_endpoints() throws Exception {
        List<JsonNode> endpoints = CliRun.of("endpoints", url, "--json").json();

        assertThat(endpoints).extracting(e -> e.get("securityPolicy").asText())
                .contains("None", "Basic256Sha256", "Aes256_Sha256_RsaPss");
    }

    @Test
    void read_and_write_typed_values() throws Exception {
        CliRun read = CliRun.of("read", url, node(MiloPeerServer.READ_ONLY));
        CliRun writeInt = CliRun.of("write", url, node(MiloPeerServer.INT32), "-5");
        CliRun writeArray = CliRun.of("write", url, node(MiloPeerServer.DOUBLE_ARRAY), "[4, 5.5]");
        CliRun refused = CliRun.of("write", url, node(MiloPeerServer.READ_ONLY), "1");
        List<JsonNode> back = CliRun.of("read", url, "--json", node(MiloPeerServer.INT32),
                node(MiloPeerServer.DOUBLE_ARRAY)).json();

        assertThat(read.out()).contains("= " + MiloPeerServer.READ_ONLY_VALUE + "  Good");
        assertThat(writeInt.exitCode()).as(writeInt.toString()).isZero();
        assertThat(writeArray.exitCode()).as(writeArray.toString()).isZero();
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.BAD_STATUS);
        assertThat(refused.out()).containsPattern("BadNotWritable|BadUserAccessDenied"); // Milo says the latter
        assertThat(back.get(0).get("value").asInt()).isEqualTo(-5);
        assertThat(back.get(1).get("value")).extracting(JsonNode::asDouble).containsExactly(4.0, 5.5);
    }

    @Test
    void browse_follows_milos_continuation_points() throws Exception {
        List<JsonNode> children = CliRun.of("browse", url, node(MiloPeerServer.MANY), "--json").json();

        assertThat(children).hasSize(MANY);
        assertThat(children.get(MANY - 1).get("nodeId").asText()).startsWith(node(MiloPeerServer.MANY + "."));
    }

    @Test
    void call_types_the_arguments_from_milos_input_arguments() {
        CliRun run = CliRun.of("call", url, node(MiloPeerServer.METHODS), node(MiloPeerServer.ADD), "2", "40");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("= 42");
    }

    @Test
    void subscribe_receives_values_and_events() throws Exception {
        List<JsonNode> values = CliRun.of("subscribe", url, "--json", node(MiloPeerServer.READ_ONLY), "--interval",
                "100ms", "--count", "1").json();
        ScheduledExecutorService emitter = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "milo-events"));
        try {
            emitter.scheduleAtFixedRate(() -> milo.emitEvent(600, "from Milo"), 100, 100, TimeUnit.MILLISECONDS);
            List<JsonNode> events = CliRun.of("subscribe", url, "--events", "--json", "--interval", "100ms", "--count",
                    "1").json();

            assertThat(events).hasSize(1);
            assertThat(events.get(0).get("severity").asInt()).isEqualTo(600);
            assertThat(events.get(0).get("message").toString()).contains("from Milo");
        } finally {
            emitter.shutdownNow();
        }
        assertThat(values).hasSize(1);
        assertThat(values.get(0).get("value").asInt()).isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
    }
}
