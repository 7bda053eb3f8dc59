package dev.opcua.sample.server.plant;

import dev.opcua.spring.boot.server.annotation.UaLimitAlarm;
import dev.opcua.spring.boot.server.annotation.UaVariable;
import java.util.Random;

/**
 * A drive of the line: its temperature follows the load with a time constant and some sensor noise,
 * its current follows the load at once. Served as a nested object of the line; its temperature is
 * watched by an ExclusiveLimitAlarm (Part 9), High from 70 degrees and HighHigh from 80, near where
 * the line trips, which clients see as events on the motor and acknowledge.
 */
public final class Motor {

    private static final double AMBIENT = 22.0;
    /** Seconds for the temperature to cover 63 % of the way to its steady value. */
    private static final double THERMAL_TIME_CONSTANT = 20.0;

    private final double ratedCurrent;
    private final double heatingAtFullLoad;
    private final Random noise;
    private volatile double temperature = AMBIENT;
    private volatile double current;
    private final double temperatureLimit;

    Motor(double ratedCurrent, double heatingAtFullLoad, double temperatureLimit, long seed) {
        this.ratedCurrent = ratedCurrent;
        this.heatingAtFullLoad = heatingAtFullLoad;
        this.temperatureLimit = temperatureLimit;
        this.noise = new Random(seed);
    }

    @UaVariable(description = "Winding temperature in degrees Celsius", signalsChanges = true, historizing = true)
    @UaLimitAlarm(high = 70, highHigh = 80, highSeverity = 600, highHighSeverity = 850)
    public double getTemperature() {
        return temperature;
    }

    @UaVariable(description = "Motor current in amperes", signalsChanges = true)
    public double getCurrent() {
        return current;
    }

    @UaVariable(description = "Temperature in degrees Celsius above which the line trips into FAULT")
    public double getTemperatureLimit() {
        return temperatureLimit;
    }

    /** Advances the motor by {@code seconds} at {@code load} (0..1, above 1 overloaded). */
    void advance(double load, double seconds) {
        double target = AMBIENT + heatingAtFullLoad * load * load;
        double alpha = 1 - Math.exp(-seconds / THERMAL_TIME_CONSTANT);
        double next = temperature + (target - temperature) * alpha + noise.nextGaussian() * 0.05;
        temperature = Math.round(next * 100) / 100.0;
        current = load <= 0 ? 0 : Math.round((ratedCurrent * (0.2 + 0.8 * load) + noise.nextGaussian() * 0.02) * 100)
                / 100.0;
    }

    boolean overheated() {
        return temperature > temperatureLimit;
    }

    /** Cooled down far enough for a Reset: 5 degrees below the limit. */
    boolean cooledDown() {
        return temperature < temperatureLimit - 5;
    }
}
