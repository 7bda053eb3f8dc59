package dev.opcua.sample.client;

import dev.opcua.spring.boot.client.annotation.OpcUaEventSubscription;
import dev.opcua.spring.boot.client.annotation.OpcUaSubscription;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * Follows the filling line with annotated listeners: each method is one monitored item of the
 * connection {@code plant}, re-established by the client after every reconnect. The values go to
 * {@link LineValues}; a trip event is logged as a warning. Not in the profile {@code pubsub}, where
 * {@link LinePubSubWatcher} takes the values from the MQTT broker instead.
 */
@Component
@Profile("!pubsub")
public class LineWatcher {

    private static final Logger log = LoggerFactory.getLogger(LineWatcher.class);

    private final LineValues values;

    public LineWatcher(LineValues values) {
        this.values = values;
    }

    @OpcUaSubscription(connection = "plant", node = PlantNodes.ACTUAL_SPEED)
    void onActualSpeed(double bottlesPerMinute) {
        values.actualSpeed(bottlesPerMinute);
    }

    @OpcUaSubscription(connection = "plant", node = PlantNodes.CONVEYOR_SPEED, samplingInterval = "0ms")
    void onConveyorSpeed(double setPoint) {
        values.conveyorSpeed(setPoint);
    }

    /** The raw DataValue too: a temperature of Bad quality is not taken. */
    @OpcUaSubscription(connection = "plant", node = PlantNodes.CONVEYOR_MOTOR_TEMPERATURE,
            deadbandType = OpcUaSubscription.DeadbandType.ABSOLUTE, deadband = 0.1)
    void onConveyorMotorTemperature(double celsius, DataValue raw) {
        if (raw.statusCode().isGood()) {
            values.conveyorMotorTemperature(celsius);
        }
    }

    @OpcUaSubscription(connection = "plant", node = PlantNodes.FILLER_MOTOR_TEMPERATURE,
            deadbandType = OpcUaSubscription.DeadbandType.ABSOLUTE, deadband = 0.1)
    void onFillerMotorTemperature(double celsius, DataValue raw) {
        if (raw.statusCode().isGood()) {
            values.fillerMotorTemperature(celsius);
        }
    }

    @OpcUaSubscription(connection = "plant", node = PlantNodes.STATE, samplingInterval = "0ms", queueSize = 10)
    void onState(String state) {
        if (!state.equals(values.state())) {
            log.info("Filling line state: {}", state);
        }
        values.state(state);
    }

    /** Trips: the plant reports them on the Server object with severity 800. */
    @OpcUaEventSubscription(connection = "plant", notifier = PlantNodes.SERVER,
            fields = {"Time", "Severity", "Message"}, where = "Severity >= 700")
    void onTrip(Instant time, int severity, LocalizedText message) {
        log.warn("Trip at {} (severity {}): {}", time, severity, message.text());
        values.trip(new LineValues.Trip(time, severity, message.text()));
    }
}
