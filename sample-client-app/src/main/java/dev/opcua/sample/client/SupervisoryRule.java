package dev.opcua.sample.client;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * A small supervisory rule on the values the listeners keep in {@link LineValues}: a stopped line is
 * started, a running line whose conveyor reached its set point gets the set point raised by one step
 * up to the target speed, and a tripped line is reset once its motors have cooled (the server refuses
 * Reset before) with the set point lowered by two steps, then started again.
 */
@Component
@ConditionalOnBooleanProperty(name = "sample.rule.enabled", matchIfMissing = true)
public class SupervisoryRule {

    private static final Logger log = LoggerFactory.getLogger(SupervisoryRule.class);
    private static final long CALL_TIMEOUT_SECONDS = 10;

    private final OpcUaClient plant;
    private final LineValues values;
    private final double targetSpeed;
    private final double step;
    private final AtomicLong starts = new AtomicLong();
    private final AtomicLong resets = new AtomicLong();
    private final AtomicLong speedChanges = new AtomicLong();

    public SupervisoryRule(OpcUaClient plant, LineValues values,
            @Value("${sample.rule.target-speed:480}") double targetSpeed, @Value("${sample.rule.step:60}") double step) {
        this.plant = plant;
        this.values = values;
        this.targetSpeed = targetSpeed;
        this.step = step;
    }

    @Scheduled(fixedDelayString = "${sample.rule.period:2s}", initialDelayString = "${sample.rule.period:2s}")
    public void apply() {
        if (plant.state() != ClientState.CONNECTED) {
            return;
        }
        try {
            switch (values.state()) {
                case "STOPPED" -> start();
                case "RUNNING" -> raiseSpeed();
                case "FAULT" -> resetAfterTrip();
                default -> { } // not known yet
            }
        } catch (Exception e) {
            log.warn("Supervisory rule: {}", Failures.unwrap(e).getMessage());
        }
    }

    private void start() throws Exception {
        plant.call(plant.nodeId(PlantNodes.LINE), plant.nodeId(PlantNodes.START))
                .get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        starts.incrementAndGet();
        log.info("Supervisory rule: started the line");
    }

    private void raiseSpeed() throws Exception {
        double setPoint = values.conveyorSpeed();
        if (Double.isNaN(setPoint) || setPoint >= targetSpeed || values.actualSpeed() < setPoint - 1) {
            return; // unknown, at the target, or still ramping up
        }
        writeSpeed(Math.min(targetSpeed, setPoint + step));
    }

    private void resetAfterTrip() throws Exception {
        try {
            plant.call(plant.nodeId(PlantNodes.LINE), plant.nodeId(PlantNodes.RESET))
                    .get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.info("Supervisory rule: the line is in FAULT and Reset is refused for now ({})",
                    Failures.unwrap(e).getMessage());
            return;
        }
        resets.incrementAndGet();
        double setPoint = values.conveyorSpeed();
        log.info("Supervisory rule: reset the line after a trip");
        if (!Double.isNaN(setPoint)) {
            writeSpeed(Math.max(step, setPoint - 2 * step));
        }
    }

    private void writeSpeed(double speed) throws Exception {
        StatusCode status = plant.writeValue(plant.nodeId(PlantNodes.CONVEYOR_SPEED), speed)
                .get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (status.isBad()) {
            log.warn("Supervisory rule: writing ConveyorSpeed {} was refused: {}", speed, status);
            return;
        }
        speedChanges.incrementAndGet();
        log.info("Supervisory rule: ConveyorSpeed set to {} bottles/min", speed);
    }

    /** Start calls made. */
    public long starts() {
        return starts.get();
    }

    /** Resets after a trip made. */
    public long resets() {
        return resets.get();
    }

    /** Set point changes written. */
    public long speedChanges() {
        return speedChanges.get();
    }
}
