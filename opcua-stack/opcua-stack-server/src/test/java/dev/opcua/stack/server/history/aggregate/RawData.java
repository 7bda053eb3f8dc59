package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Raw series for the aggregate tests, timed in whole seconds from a fixed base. */
final class RawData {

    static final Instant BASE = Instant.parse("2026-01-01T12:00:00Z");
    static final long TICKS_PER_SECOND = 10_000_000L;

    private final List<DataValue> values = new ArrayList<>();

    static long ticks(int second) {
        return DateTime.ofInstant(BASE.plusSeconds(second)).utcTicks();
    }

    static DateTime at(int second) {
        return DateTime.ofTicks(ticks(second));
    }

    RawData good(int second, double value) {
        return add(second, Variant.ofDouble(value), StatusCode.GOOD);
    }

    RawData goodInt(int second, int value) {
        return add(second, Variant.ofInt32(value), StatusCode.GOOD);
    }

    RawData uncertain(int second, double value) {
        return add(second, Variant.ofDouble(value), StatusCode.of(StatusCodes.UncertainSensorNotAccurate));
    }

    RawData bad(int second) {
        return add(second, Variant.NULL, StatusCode.of(StatusCodes.BadSensorFailure));
    }

    RawData add(int second, Variant value, StatusCode status) {
        values.add(DataValue.of(value, status, at(second), null));
        return this;
    }

    List<DataValue> list() {
        return values;
    }

    /**
     * The series most tests use: 10, 20, 30 Good every 10 s from 0, Bad at 30, 50 Good at 40, 60 Uncertain at 50.
     */
    static RawData standard() {
        return new RawData().good(0, 10).good(10, 20).good(20, 30).bad(30).good(40, 50).uncertain(50, 60);
    }
}
