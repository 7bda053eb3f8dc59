package dev.opcua.sample.server.plant;

/** What the filling line is doing; served as its name (a String variable). */
public enum MachineState {
    /** Not producing; Start begins production. */
    STOPPED,
    /** Producing bottles at the conveyor speed. */
    RUNNING,
    /** Stopped by an over-temperature trip; Reset clears it once the motors cooled down. */
    FAULT
}
