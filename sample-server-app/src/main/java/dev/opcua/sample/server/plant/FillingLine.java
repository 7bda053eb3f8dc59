package dev.opcua.sample.server.plant;

import dev.opcua.spring.boot.server.annotation.OpcUaNamespace;
import dev.opcua.spring.boot.server.annotation.UaAccess;
import dev.opcua.spring.boot.server.annotation.UaArgument;
import dev.opcua.spring.boot.server.annotation.UaMethod;
import dev.opcua.spring.boot.server.annotation.UaObject;
import dev.opcua.spring.boot.server.annotation.UaValueChangedEvent;
import dev.opcua.spring.boot.server.annotation.UaVariable;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * A bottle filling line, served as the object {@code FillingLine} of namespace
 * {@code urn:dev.opcua:sample:bottling} without any node-manager code: its annotated getters are
 * variables, its annotated methods OPC UA methods, its motors nested objects. Every change the
 * simulation or a method makes is signalled with a {@link UaValueChangedEvent}, so that items that
 * ask for sampling interval 0 get each change at once.
 *
 * <p>Thread safety: clients call methods and write on the server's workers while the simulation
 * ticks on the scheduler; the state changes under this object's lock, reads see volatile fields.
 */
@Component
@OpcUaNamespace(value = FillingLine.NAMESPACE, name = "FillingLine", displayName = "Filling line 1",
        description = "A bottle filling line with a conveyor and a filler")
public class FillingLine {

    public static final String NAMESPACE = "urn:dev.opcua:sample:bottling";
    public static final double MAX_SPEED = 600;
    /** Machinery's MachineIdentificationType (OPC 40001-1, 8.1), from the generated model of application.yml. */
    public static final String MACHINE_IDENTIFICATION_TYPE = "nsu=http://opcfoundation.org/UA/Machinery/;i=1012";

    private final ApplicationEventPublisher events;
    private final Motor conveyorMotor = new Motor(4.0, 40, 80, 1);
    private final Motor fillerMotor = new Motor(7.5, 65, 85, 2);
    private final MachineIdentification identification =
            new MachineIdentification("dev.opcua Bottling Machines", "FL-0001", 2024);
    private volatile double conveyorSpeed = 240;
    private volatile double actualSpeed;
    private volatile double fillVolume = 500;
    private volatile MachineState state = MachineState.STOPPED;
    private volatile long bottlesProduced;
    /** Bottles begun but not finished: the fraction carried from tick to tick. */
    private double partialBottle;

    public FillingLine(ApplicationEventPublisher events) {
        this.events = events;
    }

    @UaVariable(description = "Conveyor speed set point in bottles per minute, 0 to 600", access = UaAccess.READ_WRITE,
            signalsChanges = true)
    public double getConveyorSpeed() {
        return conveyorSpeed;
    }

    public void setConveyorSpeed(double value) {
        if (!(value >= 0 && value <= MAX_SPEED)) {
            throw new IllegalArgumentException("ConveyorSpeed must be 0 to " + MAX_SPEED + " bottles/min, was " + value);
        }
        conveyorSpeed = value;
    }

    @UaVariable(description = "Conveyor speed reached, in bottles per minute", signalsChanges = true,
            historizing = true)
    public double getActualSpeed() {
        return actualSpeed;
    }

    @UaVariable(description = "Volume filled into each bottle in millilitres, 100 to 2000", access = UaAccess.READ_WRITE,
            signalsChanges = true)
    public double getFillVolume() {
        return fillVolume;
    }

    public void setFillVolume(double value) {
        if (!(value >= 100 && value <= 2000)) {
            throw new IllegalArgumentException("FillVolume must be 100 to 2000 ml, was " + value);
        }
        fillVolume = value;
    }

    @UaVariable(description = "STOPPED, RUNNING or FAULT", dataType = BuiltinType.String, signalsChanges = true)
    public MachineState getState() {
        return state;
    }

    @UaVariable(description = "Bottles filled since the last ResetCounter", dataType = BuiltinType.UInt64,
            signalsChanges = true)
    public long getBottlesProduced() {
        return bottlesProduced;
    }

    @UaObject(description = "The drive of the conveyor")
    public Motor getConveyorMotor() {
        return conveyorMotor;
    }

    @UaObject(description = "The drive of the filler carousel")
    public Motor getFillerMotor() {
        return fillerMotor;
    }

    @UaObject(name = "Identification", type = MACHINE_IDENTIFICATION_TYPE,
            description = "The line's nameplate, a Machinery MachineIdentification")
    public MachineIdentification getIdentification() {
        return identification;
    }

    @UaMethod(description = "Starts production; refused while the line is in FAULT")
    public synchronized void start() {
        if (state == MachineState.FAULT) {
            throw new IllegalStateException("the line is in FAULT: Reset it first");
        }
        changeState(MachineState.RUNNING);
    }

    @UaMethod(description = "Stops production")
    public synchronized void stop() {
        if (state == MachineState.RUNNING) {
            changeState(MachineState.STOPPED);
        }
    }

    @UaMethod(description = "Clears a FAULT once both motors are 5 degrees below their limits")
    public synchronized void reset() {
        if (state != MachineState.FAULT) {
            return;
        }
        if (!conveyorMotor.cooledDown() || !fillerMotor.cooledDown()) {
            throw new IllegalStateException("the motors are still too hot to reset");
        }
        changeState(MachineState.STOPPED);
    }

    @UaMethod(description = "Sets the bottle counter to zero and returns the count it had")
    public synchronized long resetCounter(@UaArgument(description = "Why the counter is reset") String reason) {
        long before = bottlesProduced;
        bottlesProduced = 0;
        partialBottle = 0;
        changed("bottlesProduced");
        return before;
    }

    /**
     * One step of the simulation: the conveyor ramps towards its set point at 120 bottles/min per
     * second, bottles follow the speed, motors heat with their load. Returns whether a motor crossed
     * its limit in this step, which trips the line into FAULT.
     */
    synchronized boolean advance(double seconds) {
        double target = state == MachineState.RUNNING ? conveyorSpeed : 0;
        double ramp = 120 * seconds;
        double speed = actualSpeed + Math.max(-ramp, Math.min(ramp, target - actualSpeed));
        if (speed != actualSpeed) {
            actualSpeed = speed;
            changed("actualSpeed");
        }
        if (speed > 0) {
            partialBottle += speed * seconds / 60;
            long whole = (long) partialBottle;
            if (whole > 0) {
                partialBottle -= whole;
                bottlesProduced += whole;
                changed("bottlesProduced");
            }
        }
        double load = speed / MAX_SPEED;
        conveyorMotor.advance(load, seconds);
        fillerMotor.advance(load * fillVolume / 1000 * 1.6, seconds);
        changed("conveyorMotor.temperature");
        changed("conveyorMotor.current");
        changed("fillerMotor.temperature");
        changed("fillerMotor.current");
        if (state == MachineState.RUNNING && (conveyorMotor.overheated() || fillerMotor.overheated())) {
            changeState(MachineState.FAULT);
            return true;
        }
        return false;
    }

    private void changeState(MachineState next) {
        state = next;
        changed("state");
    }

    private void changed(String property) {
        events.publishEvent(new UaValueChangedEvent(this, property));
    }
}
