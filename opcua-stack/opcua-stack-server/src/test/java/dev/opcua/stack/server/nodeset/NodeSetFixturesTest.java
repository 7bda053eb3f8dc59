package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.server.OpcUaServer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The committed NodeSet2 fixtures ({@link NodeSetFixtures}) are exactly what the server exports of its
 * built-in models now, so they cannot drift from the code that writes and the models they hold.
 *
 * <p>To regenerate them after a change to the exporter or the models, run this test with
 * {@code -Dopcua.nodeset.fixtures.write=true} (it then writes the files and passes), and commit them:
 * {@value #REGENERATE}.
 */
class NodeSetFixturesTest {

    static final String REGENERATE = "mvn -B -o test -pl opcua-stack/opcua-stack-server -am"
            + " -Dtest=NodeSetFixturesTest -Dsurefire.failIfNoSpecifiedTests=false -Dopcua.nodeset.fixtures.write=true";

    @Test
    void the_committed_fixtures_equal_a_fresh_export_of_the_built_in_models() throws Exception {
        boolean write = Boolean.getBoolean("opcua.nodeset.fixtures.write");
        try (OpcUaServer server = NodeSetFixtures.serverWithBuiltInModels()) {
            for (Map.Entry<String, String> fixture : NodeSetFixtures.FILES.entrySet()) {
                String fresh = new String(NodeSetFixtures.export(server, fixture.getKey()), StandardCharsets.UTF_8);
                if (write) {
                    Path file = NodeSetFixtures.sourceDir().resolve(fixture.getValue());
                    Files.createDirectories(file.getParent());
                    Files.writeString(file, fresh, StandardCharsets.UTF_8);
                    continue;
                }
                String committed;
                try (InputStream in = NodeSetFixtures.class.getClassLoader()
                        .getResourceAsStream(NodeSetFixtures.RESOURCE_DIR + fixture.getValue())) {
                    assertThat(in).as("fixture %s; write it with %s", fixture.getValue(), REGENERATE).isNotNull();
                    committed = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
                assertThat(committed).as("committed %s is not a fresh export of %s (expected: the committed file);"
                        + " regenerate it with %s", fixture.getValue(), fixture.getKey(), REGENERATE).isEqualTo(fresh);
            }
        }
    }
}
