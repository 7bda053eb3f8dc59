package dev.opcua.sample.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A simulated bottling plant served over OPC UA by the starter: everything about the server comes
 * from {@code application.yml}; the address space comes from beans. {@code FillingLine} is an
 * annotated bean (namespace {@code urn:dev.opcua:sample:bottling}), the quality station a
 * programmatic node manager bean (namespace {@code urn:dev.opcua:sample:quality}). Actuator serves
 * health, the {@code opcua} endpoint and Prometheus metrics on port 8080.
 *
 * <p>Run with {@code mvn -B -q -pl sample-server-app exec:java} after an install; stops on Ctrl-C
 * with a graceful OPC UA shutdown. With {@code -Dsample.startup-steps=true} the application records
 * its start-up steps (Spring's {@code ApplicationStartup}, bean by bean) for Actuator's {@code startup}
 * endpoint: {@code --management.endpoints.web.exposure.include=startup}, then POST
 * {@code /actuator/startup} (docs/OPERATIONS.md, "Start-up and footprint"); off by default, as recording costs.
 */
@SpringBootApplication
@EnableScheduling
public class SampleServerApplication {

    /** Start-up steps kept when recording: the sample's start takes about 3,000. */
    private static final int RECORDED_STEPS = 20_000;

    public static void main(String[] args) {
        SpringApplication application = new SpringApplication(SampleServerApplication.class);
        if (Boolean.getBoolean("sample.startup-steps")) {
            application.setApplicationStartup(new BufferingApplicationStartup(RECORDED_STEPS));
        }
        application.run(args);
    }
}
