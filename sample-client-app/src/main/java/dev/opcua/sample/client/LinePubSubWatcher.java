package dev.opcua.sample.client;

import dev.opcua.spring.boot.client.annotation.OpcUaEventSubscription;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubListener;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * Follows the filling line through PubSub (profile {@code pubsub}, in place of {@link LineWatcher}): each method
 * receives one field of the data set {@code FillingLine} that the sample server publishes to the MQTT broker,
 * read by the reader {@code line} of {@code application-pubsub.yml}, and feeds the same {@link LineValues}, so
 * that {@code GET /line} and the supervisory rule work as with monitored items. A delta frame without a field
 * does not call its method. Trips are events, which the data set does not carry: they still come through the
 * session.
 */
@Component
@Profile("pubsub")
public class LinePubSubWatcher {

    private static final Logger log = LoggerFactory.getLogger(LinePubSubWatcher.class);

    private final LineValues values;

    public LinePubSubWatcher(LineValues values) {
        this.values = values;
    }

    @OpcUaPubSubListener(reader = "line", field = "ActualSpeed")
    void onActualSpeed(double bottlesPerMinute) {
        values.actualSpeed(bottlesPerMinute);
    }

    @OpcUaPubSubListener(reader = "line", field = "ConveyorSpeed")
    void onConveyorSpeed(double setPoint) {
        values.conveyorSpeed(setPoint);
    }

    /** The DataValue too: a temperature of Bad quality is not taken. */
    @OpcUaPubSubListener(reader = "line", field = "ConveyorMotorTemperature")
    void onConveyorMotorTemperature(double celsius, DataValue raw) {
        if (raw.statusCode().isGood()) {
            values.conveyorMotorTemperature(celsius);
        }
    }

    @OpcUaPubSubListener(reader = "line", field = "FillerMotorTemperature")
    void onFillerMotorTemperature(double celsius, DataValue raw) {
        if (raw.statusCode().isGood()) {
            values.fillerMotorTemperature(celsius);
        }
    }

    @OpcUaPubSubListener(reader = "line", field = "State")
    void onState(String state) {
        if (!state.equals(values.state())) {
            log.info("Filling line state (PubSub): {}", state);
        }
        values.state(state);
    }

    /** Trips: events on the plant's Server object, through the session (PubSub data sets carry no events). */
    @OpcUaEventSubscription(connection = "plant", notifier = PlantNodes.SERVER,
            fields = {"Time", "Severity", "Message"}, where = "Severity >= 700")
    void onTrip(Instant time, int severity, LocalizedText message) {
        log.warn("Trip at {} (severity {}): {}", time, severity, message.text());
        values.trip(new LineValues.Trip(time, severity, message.text()));
    }
}
