package dev.opcua.cli;

import static dev.opcua.cli.CliTestServer.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.server.OpcUaServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * nodeset export: a namespace browsed from our server, written as NodeSet2, imported by another of our servers,
 * which then serves the same nodes and values.
 */
@ExtendWith(SharedServer.class)
class NodeSetExportIT {

    @Test
    void an_exported_namespace_imports_into_another_server_with_the_same_nodes_and_values(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("plant.xml");

        CliRun export = CliRun.of("nodeset", "export", SharedServer.get().endpointUrl(), CliTestServer.NS, "-o",
                file.toString());

        assertThat(export.exitCode()).as(export.toString()).isZero();
        assertThat(export.err()).containsPattern("exported \\d+ nodes of " + CliTestServer.NS);
        String xml = Files.readString(file);
        assertThat(xml).contains("<Uri>" + CliTestServer.NS + "</Uri>",
                "<UAVariable NodeId=\"ns=1;s=Plant.Fixed\" BrowseName=\"1:Fixed\" DataType=\"i=6\" ValueRank=\"-1\"",
                "<UAMethod NodeId=\"ns=1;s=Plant.Add\"", "<uax:Argument><uax:Name>a</uax:Name>",
                "<Reference ReferenceType=\"i=35\" IsForward=\"false\">i=85</Reference>");

        try (OpcUaServer imported = OpcUaServer.builder().applicationUri("urn:test:cli:imported")
                .applicationName("imported").bindAddress("127.0.0.1").port(0).hostnames(List.of("localhost"))
                .pki(new dev.opcua.stack.core.security.pki.PkiDirectory(dir.resolve("pki")))
                .nodeSet(file).build().start()) {
            CliRun read = CliRun.of("read", imported.endpointUrl(), node("Plant.Fixed"), node("Plant.Curve"));
            CliRun browse = CliRun.of("browse", imported.endpointUrl(), node("Plant"));

            assertThat(read.exitCode()).as(read.toString()).isZero();
            assertThat(read.lines().get(0)).contains("= 3  Good");
            assertThat(read.lines().get(1)).contains("Good");
            assertThat(browse.out()).contains("Speed", "Parts", "Add", "(Method)");
        }
    }

    @Test
    void an_unknown_namespace_is_named_with_the_servers_namespaces() {
        CliRun run = CliRun.of("nodeset", "export", SharedServer.get().endpointUrl(), "urn:nowhere");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("no namespace 'urn:nowhere'", CliTestServer.NS);
    }
}
