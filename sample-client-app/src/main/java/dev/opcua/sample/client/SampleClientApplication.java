package dev.opcua.sample.client;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A supervisory client of the sample plant, configured entirely from {@code application.yml}: the
 * connection {@code plant} gives the {@code OpcUaClient} bean, {@link LineWatcher}'s annotated
 * methods follow the filling line, {@link SupervisoryRule} raises the conveyor speed in steps and
 * resets the line after a trip, {@link LineTree} logs the line's tree once connected, and
 * {@link LineController} serves the latest values as JSON. Actuator (health with the connection,
 * metrics, Prometheus) is on port 8081.
 *
 * <p>Run beside the sample server with {@code mvn -B -q -pl sample-client-app exec:java}; it waits
 * for the server when the server is not up yet.
 */
@SpringBootApplication
@EnableScheduling
public class SampleClientApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleClientApplication.class, args);
    }
}
