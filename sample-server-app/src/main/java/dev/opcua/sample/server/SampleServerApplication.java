package dev.opcua.sample.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A simulated bottling plant served over OPC UA by the starter: everything about the server comes
 * from {@code application.yml}; the address space comes from beans. {@code FillingLine} is an
 * annotated bean (namespace {@code urn:dev.opcua:sample:bottling}), the quality station a
 * programmatic node manager bean (namespace {@code urn:dev.opcua:sample:quality}). Actuator serves
 * health, the {@code opcua} endpoint and Prometheus metrics on port 8080.
 *
 * <p>Run with {@code mvn -B -q -pl sample-server-app exec:java} after an install; stops on Ctrl-C
 * with a graceful OPC UA shutdown.
 */
@SpringBootApplication
@EnableScheduling
public class SampleServerApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleServerApplication.class, args);
    }
}
