package dev.opcua.sample.client;

/**
 * The nodes of the sample plant this client uses, by namespace URI ({@code nsu=}), so that they hold
 * whatever index the server gives the namespace.
 */
public final class PlantNodes {

    public static final String NAMESPACE = "urn:dev.opcua:sample:bottling";
    public static final String LINE = "nsu=" + NAMESPACE + ";s=FillingLine";
    public static final String ACTUAL_SPEED = LINE + ".ActualSpeed";
    public static final String CONVEYOR_SPEED = LINE + ".ConveyorSpeed";
    public static final String STATE = LINE + ".State";
    public static final String CONVEYOR_MOTOR_TEMPERATURE = LINE + ".ConveyorMotor.Temperature";
    public static final String FILLER_MOTOR_TEMPERATURE = LINE + ".FillerMotor.Temperature";
    public static final String START = LINE + ".Start";
    public static final String RESET = LINE + ".Reset";
    /** The Server object: the plant reports trips as events there. */
    public static final String SERVER = "i=2253";

    private PlantNodes() {
    }
}
