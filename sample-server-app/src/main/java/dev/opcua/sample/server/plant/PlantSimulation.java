package dev.opcua.sample.server.plant;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Drives the line on Spring's scheduler ({@code plant-simulation-*} threads, see application.yml):
 * every {@code plant.simulation.period-ms} the line advances, and a trip is reported as an event on
 * the Server object (Part 3, 4.7), so that an alarm list subscribed to the server sees it.
 */
@Component
public class PlantSimulation {

    private static final Logger log = LoggerFactory.getLogger(PlantSimulation.class);
    private static final NodeId BASE_EVENT_TYPE = NodeId.ns0(NodeIds.BaseEventType);
    /** A trip stops production: high, below the 1000 of a safety event. */
    private static final int TRIP_SEVERITY = 800;

    private final FillingLine line;
    /** Absent with {@code opcua.server.enabled=false}: the line still runs, trips are only logged. */
    private final ObjectProvider<OpcUaServer> server;
    private final double periodSeconds;

    public PlantSimulation(FillingLine line, ObjectProvider<OpcUaServer> server,
            @Value("${plant.simulation.period-ms:500}") long periodMillis) {
        this.line = line;
        this.server = server;
        this.periodSeconds = periodMillis / 1000.0;
    }

    @Scheduled(fixedRateString = "${plant.simulation.period-ms:500}", initialDelay = 1000)
    public void tick() {
        if (line.advance(periodSeconds)) {
            String message = String.format("Filling line tripped: conveyor motor %.1f °C (limit %.0f), filler motor "
                    + "%.1f °C (limit %.0f)", line.getConveyorMotor().getTemperature(),
                    line.getConveyorMotor().getTemperatureLimit(), line.getFillerMotor().getTemperature(),
                    line.getFillerMotor().getTemperatureLimit());
            log.warn(message);
            OpcUaServer opcua = server.getIfAvailable();
            if (opcua == null) {
                return;
            }
            int ns = opcua.namespaces().indexOf(FillingLine.NAMESPACE);
            opcua.events().report(EventNotifierRegistry.SERVER_OBJECT, UaEvent.builder(BASE_EVENT_TYPE)
                    .sourceNode(NodeId.string(ns, "FillingLine"))
                    .sourceName("FillingLine")
                    .message(message)
                    .severity(TRIP_SEVERITY)
                    .build());
        }
    }
}
