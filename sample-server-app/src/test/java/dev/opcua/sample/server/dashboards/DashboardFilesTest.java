package dev.opcua.sample.server.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The dashboard files are provisionable as they are: no fixed data source, the variables the docs name. */
class DashboardFilesTest {

    private static JsonNode read(String file) throws IOException {
        Path path = Path.of(System.getProperty("opcua.project.dir", ".."), "docs", "dashboards", file);
        return JsonMapper.builder().build().readTree(Files.readString(path));
    }

    private static List<JsonNode> panels(JsonNode array) {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : array) {
            panels.add(panel);
            panels.addAll(panels(panel.path("panels")));
        }
        return panels;
    }

    @ParameterizedTest
    @ValueSource(strings = {"opcua-server.json", "opcua-client.json", "opcua-pubsub.json"})
    void every_panel_queries_the_templated_prometheus_data_source_and_fits_the_grid(String file) throws IOException {
        JsonNode dashboard = read(file);
        assertThat(dashboard.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(39);
        assertThat(dashboard.path("uid").asString()).isEqualTo(file.replace(".json", ""));
        assertThat(dashboard.has("id")).as("no database id in a provisioned file").isFalse();

        Set<Integer> ids = new HashSet<>();
        for (JsonNode panel : panels(dashboard.path("panels"))) {
            String title = panel.path("title").asString();
            assertThat(ids.add(panel.path("id").asInt())).as("unique id of %s", title).isTrue();
            JsonNode grid = panel.path("gridPos");
            assertThat(grid.path("x").asInt() + grid.path("w").asInt()).as("width of %s", title).isLessThanOrEqualTo(24);
            if ("row".equals(panel.path("type").asString())) {
                continue;
            }
            assertThat(panel.path("description").asString()).as("description of %s", title).isNotBlank();
            assertThat(panel.path("datasource").path("uid").asString()).as(title).isEqualTo("${DS_PROMETHEUS}");
            assertThat(panel.path("targets")).as(title).isNotEmpty().allSatisfy(target ->
                    assertThat(target.path("datasource").path("uid").asString()).isEqualTo("${DS_PROMETHEUS}"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"opcua-server.json", "opcua-client.json", "opcua-pubsub.json"})
    void the_variables_are_the_data_source_application_and_instance(String file) throws IOException {
        List<String> names = new ArrayList<>();
        for (JsonNode variable : read(file).path("templating").path("list")) {
            names.add(variable.path("name").asString());
            if (variable.path("name").asString().equals("DS_PROMETHEUS")) {
                assertThat(variable.path("type").asString()).isEqualTo("datasource");
                assertThat(variable.path("query").asString()).isEqualTo("prometheus");
            }
        }
        assertThat(names).startsWith("DS_PROMETHEUS", "application", "instance");
    }
}
