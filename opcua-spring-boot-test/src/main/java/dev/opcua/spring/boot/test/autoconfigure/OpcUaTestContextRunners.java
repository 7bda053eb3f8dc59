package dev.opcua.spring.boot.test.autoconfigure;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.test.client.OpcUaTestClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The test support for {@code ApplicationContextRunner}, which reads no test annotations: the server's
 * auto-configuration with the test client's, the server on a free port without a shutdown delay. The test client
 * connects when the runner starts the context and takes {@code opcua.test.client.*} as with
 * {@link AutoConfigureOpcUaTestClient}.
 *
 * <pre>{@code
 * ApplicationContextRunner runner = OpcUaTestContextRunners.withServerAndTestClient(new ApplicationContextRunner())
 *         .withBean(LineNodes.class);
 * runner.run(context -> assertThat(context.getBean(OpcUaTestClient.class).readValue(SPEED)).isGood());
 * }</pre>
 */
public final class OpcUaTestContextRunners {

    private OpcUaTestContextRunners() {
    }

    /** {@code runner} with the OPC UA server on a free port and an {@link OpcUaTestClient} connected to it. */
    public static ApplicationContextRunner withServerAndTestClient(ApplicationContextRunner runner) {
        return runner.withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                        OpcUaTestServerPkiAutoConfiguration.class, OpcUaTestClientAutoConfiguration.class))
                .withPropertyValues("opcua.server.port=0", "opcua.server.shutdown-delay=0s");
    }
}
