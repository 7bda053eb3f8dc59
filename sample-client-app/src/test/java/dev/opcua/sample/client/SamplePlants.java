package dev.opcua.sample.client;

import dev.opcua.sample.server.SampleServerApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The sample plant for this module's tests, run with its own application.yml (this module's shadows it
 * on the class path): its meters carry {@code application=sample-plant} and histogram buckets as in
 * production. OPC UA on a given port (0: a free one, then {@link #opcUaEndpointUrl}), Actuator on a free one.
 */
final class SamplePlants {

    private SamplePlants() {
    }

    /** Starts the plant on {@code opcUaPort} with its PKI in {@code pki}. */
    static ConfigurableApplicationContext start(int opcUaPort, Path pki) {
        return run(opcUaPort, pki);
    }

    /**
     * Starts the plant on {@code opcUaPort} with its PKI in {@code pki} and PubSub on, publishing the line to the
     * broker at {@code brokerUrl} as its application.yml configures it.
     */
    static ConfigurableApplicationContext startPublishing(int opcUaPort, Path pki, String brokerUrl) {
        return run(opcUaPort, pki, "--opcua.pubsub.enabled=true", "--opcua.pubsub.mqtt.broker-url=" + brokerUrl);
    }

    /**
     * Starts one plant of the hot redundant pair in {@code profile} ({@code redundant-a} or {@code redundant-b}, the
     * sample server's application-redundant-*.yml) on {@code opcUaPort}, its PKI and history in {@code dir}, with
     * its partner, the other plant, at {@code partnerPort} (the profiles name 4841 and 4842). The partner is given
     * whole: a list from the arguments replaces the profile's, it does not merge with it.
     */
    static ConfigurableApplicationContext startRedundant(String profile, int opcUaPort, int partnerPort, Path dir) {
        String partner = profile.endsWith("-a") ? "b" : "a";
        return run(opcUaPort, dir.resolve("pki"), "--spring.profiles.active=" + profile,
                "--opcua.server.history.directory=" + dir.resolve("history"),
                "--opcua.server.redundancy.partners[0].server-uri=urn:dev.opcua:sample:plant:" + partner,
                "--opcua.server.redundancy.partners[0].endpoint-url=opc.tcp://localhost:" + partnerPort + "/");
    }

    private static ConfigurableApplicationContext run(int opcUaPort, Path pki, String... more) {
        Path configuration = Path.of(System.getProperty("opcua.project.dir", ".."),
                "sample-server-app", "src", "main", "resources", "application.yml").toAbsolutePath();
        // arguments: they win over the configuration file (and over its profile-specific files beside it)
        List<String> arguments = new ArrayList<>(List.of(
                "--spring.config.location=file:" + configuration,
                "--opcua.client.enabled=false", "--sample.rule.enabled=false",
                "--opcua.server.port=" + opcUaPort, "--opcua.server.hostnames=localhost",
                "--opcua.server.security.pki-dir=" + pki, "--opcua.server.shutdown-delay=0s",
                "--plant.simulation.period-ms=100", "--server.port=0"));
        arguments.addAll(List.of(more));
        return new SpringApplicationBuilder(SampleServerApplication.class).run(arguments.toArray(String[]::new));
    }

    /**
     * The plant's endpoint URL with the port its server bound, as published in {@code local.opcua.server.endpoint-url}
     * once the server has started: for a plant started on port 0.
     */
    static String opcUaEndpointUrl(ConfigurableApplicationContext plant) {
        return plant.getEnvironment().getRequiredProperty("local.opcua.server.endpoint-url");
    }

    /** The plant's Actuator port. */
    static int httpPort(ConfigurableApplicationContext plant) {
        return Integer.parseInt(plant.getEnvironment().getProperty("local.server.port"));
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
