package dev.opcua.sample.server;

import static dev.opcua.spring.boot.test.assertj.OpcUaAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.sample.server.plant.FillingLine;
import dev.opcua.spring.boot.test.autoconfigure.OpcUaServerTest;
import dev.opcua.spring.boot.test.client.OpcUaTestClient;
import dev.opcua.spring.boot.test.server.LocalOpcUaServerPort;
import dev.opcua.stack.core.ids.StatusCodes;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sample plant tested as an application of the starter tests itself (docs/TESTING.md): {@link OpcUaServerTest}
 * starts it with its server on a free port and connects a test client as the operator, who reads and sets the
 * filling line.
 */
@OpcUaServerTest(username = "operator", password = "line1-operator")
class FillingLineTestClientIT {

    private static final String LINE = "nsu=" + FillingLine.NAMESPACE + ";s=FillingLine";

    @TempDir
    static Path data;

    /** The PKI (the operator's password is encrypted with the plant's certificate) and history in a temporary place. */
    @DynamicPropertySource
    static void temporaryFiles(DynamicPropertyRegistry registry) {
        registry.add("opcua.server.security.pki-dir", () -> data.resolve("pki").toString());
        registry.add("opcua.server.history.directory", () -> data.resolve("history").toString());
    }

    @Autowired
    OpcUaTestClient opcua;

    @LocalOpcUaServerPort
    int port;

    @Test
    void the_operator_reads_the_stopped_line_on_the_free_port() {
        assertThat(port).as("a free port, not application.yml's 4840").isNotEqualTo(4840);
        assertThat(opcua.endpointUrl()).isEqualTo("opc.tcp://localhost:" + port + "/");
        assertThat(opcua.readValue(LINE + ".State")).isGood().hasValue("STOPPED");
        assertThat(opcua.readValue(LINE + ".ConveyorSpeed")).isGood().hasValue(240.0);
        assertThat(opcua.browse(LINE)).isGood().containsBrowseNames("ConveyorSpeed", "State", "Start", "Identification");
    }

    @Test
    void the_operator_sets_the_conveyor_speed_within_its_range_only() {
        assertThat(opcua.writeValue(LINE + ".ConveyorSpeed", 9000.0)).is(StatusCodes.BadOutOfRange);
        assertThat(opcua.writeValue(LINE + ".ConveyorSpeed", 300.0)).isGood();
        assertThat(opcua.readValue(LINE + ".ConveyorSpeed")).hasValue(300.0);
    }
}
