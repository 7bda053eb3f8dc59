package dev.opcua.sample.client;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The latest values of the filling line as the listeners received them, and the last trips. Written
 * by the client's listener threads, read by the supervisory rule and the REST resource.
 */
@Component
public class LineValues {

    /** A trip event as it arrived. */
    public record Trip(Instant time, int severity, String message) {
    }

    private static final int TRIPS_KEPT = 10;

    private volatile double actualSpeed = Double.NaN;
    private volatile double conveyorSpeed = Double.NaN;
    private volatile double conveyorMotorTemperature = Double.NaN;
    private volatile double fillerMotorTemperature = Double.NaN;
    private volatile String state = "UNKNOWN";
    private volatile Instant updated;
    private final Deque<Trip> trips = new ArrayDeque<>();

    public double actualSpeed() {
        return actualSpeed;
    }

    public void actualSpeed(double value) {
        actualSpeed = value;
        touch();
    }

    public double conveyorSpeed() {
        return conveyorSpeed;
    }

    public void conveyorSpeed(double value) {
        conveyorSpeed = value;
        touch();
    }

    public double conveyorMotorTemperature() {
        return conveyorMotorTemperature;
    }

    public void conveyorMotorTemperature(double value) {
        conveyorMotorTemperature = value;
        touch();
    }

    public double fillerMotorTemperature() {
        return fillerMotorTemperature;
    }

    public void fillerMotorTemperature(double value) {
        fillerMotorTemperature = value;
        touch();
    }

    public String state() {
        return state;
    }

    public void state(String value) {
        state = value;
        touch();
    }

    public synchronized void trip(Trip trip) {
        if (trips.size() == TRIPS_KEPT) {
            trips.removeFirst();
        }
        trips.addLast(trip);
        touch();
    }

    public synchronized List<Trip> trips() {
        return List.copyOf(trips);
    }

    private void touch() {
        updated = Instant.now();
    }

    /** When a listener last delivered a value, or null before the first. */
    public Instant updated() {
        return updated;
    }

    /** Everything as one JSON-friendly map. */
    public Map<String, Object> snapshot() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("state", state);
        values.put("actualSpeed", actualSpeed);
        values.put("conveyorSpeed", conveyorSpeed);
        values.put("conveyorMotorTemperature", conveyorMotorTemperature);
        values.put("fillerMotorTemperature", fillerMotorTemperature);
        values.put("trips", trips());
        values.put("updated", updated);
        return values;
    }
}
