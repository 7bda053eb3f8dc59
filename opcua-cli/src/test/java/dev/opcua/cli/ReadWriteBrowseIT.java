package dev.opcua.cli;

import static dev.opcua.cli.CliTestServer.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** endpoints, read, write and browse against our server, as text and as JSON. */
@ExtendWith(SharedServer.class)
class ReadWriteBrowseIT {

    private final CliTestServer server = SharedServer.get();
    private final String url = server.endpointUrl();

    @Test
    void endpoints_lists_every_endpoint_with_policy_mode_and_user_tokens() {
        CliRun run = CliRun.of("endpoints", url);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines().get(0)).contains("URL", "POLICY", "MODE", "USER TOKENS");
        assertThat(run.out()).contains("Basic256Sha256", "SignAndEncrypt", "None", "Anonymous, UserName");
    }

    @Test
    void endpoints_as_json_gives_one_object_per_endpoint() throws Exception {
        List<JsonNode> endpoints = CliRun.of("endpoints", url, "--json").json();

        assertThat(endpoints).hasSize(2);
        assertThat(endpoints).extracting(e -> e.get("securityPolicy").asText())
                .containsExactlyInAnyOrder("None", "Basic256Sha256");
        assertThat(endpoints.get(0).get("userTokens")).extracting(JsonNode::asText).contains("Anonymous", "UserName");
    }

    @Test
    void read_prints_a_line_per_node_with_value_and_status() {
        CliRun run = CliRun.of("read", url, node("Plant.Fixed"), node("Plant.Parts.P5"));

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines()).hasSize(2);
        assertThat(run.lines().get(0)).startsWith(node("Plant.Fixed") + " = 3  Good");
        assertThat(run.lines().get(1)).startsWith(node("Plant.Parts.P5") + " = 5  Good");
    }

    @Test
    void read_as_json_gives_value_type_and_status_per_node() throws Exception {
        List<JsonNode> values = CliRun.of("read", url, "--json", node("Plant.Curve"), "ns=0;i=2259").json();

        assertThat(values).hasSize(2);
        assertThat(values.get(0).get("nodeId").asText()).isEqualTo(node("Plant.Curve"));
        assertThat(values.get(0).get("value")).extracting(JsonNode::asDouble).containsExactly(1.0, 2.0);
        assertThat(values.get(0).get("valueType").asText()).isEqualTo("Double");
        assertThat(values.get(0).get("status").asText()).isEqualTo("Good");
        assertThat(values.get(1).get("valueType").asText()).isEqualTo("Int32"); // ServerStatus.State
    }

    @Test
    void read_of_another_attribute_names_it() throws Exception {
        List<JsonNode> values = CliRun.of("read", url, "--json", "--attribute", "BrowseName", node("Plant.Speed"))
                .json();

        assertThat(values.get(0).get("attribute").asText()).isEqualTo("BrowseName");
        assertThat(values.get(0).get("valueType").asText()).isEqualTo("QualifiedName");
    }

    @Test
    void read_of_an_unknown_node_prints_its_bad_status_and_exits_with_3() {
        CliRun run = CliRun.of("read", url, node("Plant.Nothing"));

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_STATUS);
        assertThat(run.out()).contains("BadNodeIdUnknown");
    }

    @Test
    void write_converts_the_text_to_the_variables_data_type() {
        assertThat(CliRun.of("write", url, node("Plant.Count"), "42").exitCode()).isZero();
        assertThat(CliRun.of("write", url, node("Plant.Running"), "true").exitCode()).isZero();
        assertThat(CliRun.of("write", url, node("Plant.Name"), "line 2").exitCode()).isZero();
        assertThat(CliRun.of("write", url, node("Plant.Label"), "[de] Linie").exitCode()).isZero();
        CliRun curve = CliRun.of("write", url, node("Plant.Curve"), "[3, 4.5, 6]");
        assertThat(curve.exitCode()).as(curve.toString()).isZero();
        assertThat(curve.out()).contains(":= [3.0, 4.5, 6.0]  Good");

        CliRun read = CliRun.of("read", url, node("Plant.Count"), node("Plant.Running"), node("Plant.Name"),
                node("Plant.Label"), node("Plant.Curve"));
        assertThat(read.lines()).satisfiesExactly(
                l -> assertThat(l).contains("= 42  Good"),
                l -> assertThat(l).contains("= true  Good"),
                l -> assertThat(l).contains("= line 2  Good"),
                l -> assertThat(l).contains("= [de] Linie  Good"),
                l -> assertThat(l).contains("= [3.0, 4.5, 6.0]  Good"));
    }

    @Test
    void write_of_text_that_does_not_fit_the_data_type_says_what_is_expected_and_exits_with_1() {
        CliRun notANumber = CliRun.of("write", url, node("Plant.Count"), "fast");
        CliRun outOfRange = CliRun.of("write", url, node("Plant.Small"), "300");
        CliRun scalarForArray = CliRun.of("write", url, node("Plant.Curve"), "5");

        assertThat(notANumber.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(notANumber.err()).contains("'fast'", "Int32", "expected an integer");
        assertThat(outOfRange.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outOfRange.err()).contains("'300'", "Byte");
        assertThat(scalarForArray.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(scalarForArray.err()).contains("expected [");
    }

    @Test
    void write_the_server_refuses_prints_the_status_and_exits_with_3() {
        CliRun run = CliRun.of("write", url, node("Plant.Fixed"), "4");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.BAD_STATUS);
        assertThat(run.out()).contains("BadNotWritable");
    }

    @Test
    void browse_prints_the_tree_to_the_depth_asked() {
        CliRun run = CliRun.of("browse", url, node("Plant"), "--depth", "2");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines().get(0)).isEqualTo(node("Plant"));
        assertThat(run.out()).contains("Speed", "(Variable)", "Parts", "(Object)", "P29", "Add", "(Method)");
        assertThat(run.lines()).anySatisfy(l -> assertThat(l).startsWith("│  ├─ ").contains("P0"));
    }

    @Test
    void browse_pages_through_a_large_folder_and_stops_at_max() throws Exception {
        List<JsonNode> all = CliRun.of("browse", url, node("Plant.Parts"), "--page-size", "7", "--json").json();
        CliRun limited = CliRun.of("browse", url, node("Plant.Parts"), "--page-size", "7", "--max", "10");

        assertThat(all).hasSize(CliTestServer.PARTS);
        assertThat(all).allSatisfy(n -> assertThat(n.get("parent").asText()).isEqualTo(node("Plant.Parts")));
        assertThat(limited.exitCode()).isZero();
        assertThat(limited.lines()).hasSize(1 + 10);
        assertThat(limited.err()).contains("stopped at --max 10 nodes");
    }

    @Test
    void browse_on_a_terminal_shows_a_progress_line_on_stderr_and_clears_it() {
        CliRun run = CliRun.onTerminal("browse", url, node("Plant.Parts"), "--page-size", "7", "--no-color");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).contains("\r\u001b[2Kbrowsed 7 nodes", "browsed 30 nodes").endsWith("\r\u001b[2K");
        assertThat(run.lines()).hasSize(1 + CliTestServer.PARTS);
    }
}
