package dev.opcua.spring.boot.test.assertj;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a {@link DataValue} (Part 4, 7.11): its status (severity, or code without the info bits), its value
 * and its timestamps. Failure messages name status codes symbolically and show the whole value.
 */
public class DataValueAssert extends AbstractAssert<DataValueAssert, DataValue> {

    protected DataValueAssert(DataValue actual) {
        super(actual, DataValueAssert.class);
    }

    /** Verifies that the status is Good. */
    public DataValueAssert isGood() {
        isNotNull();
        if (!statusCodeOf().isGood()) {
            failWithMessage("Expecting a Good DataValue but its status was %s%n(%s)", describeStatus(), actual);
        }
        return this;
    }

    /** Verifies that the status is Uncertain. */
    public DataValueAssert isUncertain() {
        isNotNull();
        if (!statusCodeOf().isUncertain()) {
            failWithMessage("Expecting an Uncertain DataValue but its status was %s%n(%s)", describeStatus(), actual);
        }
        return this;
    }

    /** Verifies that the status is Bad. */
    public DataValueAssert isBad() {
        isNotNull();
        if (!statusCodeOf().isBad()) {
            failWithMessage("Expecting a Bad DataValue but its status was %s%n(%s)", describeStatus(), actual);
        }
        return this;
    }

    /** Verifies that the status code is {@code code} (a {@code StatusCodes} constant), ignoring the info bits. */
    public DataValueAssert hasStatus(int code) {
        isNotNull();
        if (!statusCodeOf().isSameCode(code)) {
            failWithMessage("Expecting a DataValue with status %s but was %s%n(%s)", StatusNames.describe(code),
                    describeStatus(), actual);
        }
        return this;
    }

    /** Verifies that the status code is {@code code} as an unsigned 32-bit value, ignoring the info bits. */
    public DataValueAssert hasStatus(long code) {
        return hasStatus((int) code);
    }

    /** Verifies that the status code is {@code code}'s, ignoring the info bits. */
    public DataValueAssert hasStatus(StatusCode code) {
        return hasStatus(code.value());
    }

    /** Verifies that the value is {@code expected}, as {@link VariantAssert#hasValue(Object)}. */
    public DataValueAssert hasValue(Object expected) {
        isNotNull();
        Object value = actual.value().value();
        if (!Objects.deepEquals(value, expected)) {
            failWithMessage("Expecting a DataValue with value %s but was %s%n(%s)", VariantAssert.describe(expected),
                    VariantAssert.describe(value), actual);
        }
        return this;
    }

    /** Verifies that the value satisfies {@code requirements} (AssertJ assertions on it). */
    public DataValueAssert hasValueSatisfying(Consumer<Object> requirements) {
        isNotNull();
        requirements.accept(actual.value().value());
        return this;
    }

    /** Assertions on the value as a variant (its type, scalar or array). */
    public VariantAssert value() {
        isNotNull();
        return new VariantAssert(actual.value());
    }

    /** Assertions on the status code. */
    public StatusCodeAssert statusCode() {
        isNotNull();
        return new StatusCodeAssert(statusCodeOf());
    }

    /** Verifies that the source timestamp is set. */
    public DataValueAssert hasSourceTimestamp() {
        isNotNull();
        if (isUnset(actual.sourceTimestamp())) {
            failWithMessage("Expecting a DataValue with a source timestamp but it had none%n(%s)", actual);
        }
        return this;
    }

    /** Verifies that the source timestamp is after {@code instant}. */
    public DataValueAssert hasSourceTimestampAfter(Instant instant) {
        return timestampAfter("source", actual == null ? null : actual.sourceTimestamp(), instant);
    }

    /** Verifies that the source timestamp is not after {@code instant}. */
    public DataValueAssert hasSourceTimestampNotAfter(Instant instant) {
        isNotNull();
        DateTime timestamp = actual.sourceTimestamp();
        if (isUnset(timestamp) || timestamp.toInstant().isAfter(instant)) {
            failWithMessage("Expecting a DataValue with a source timestamp not after %s but was %s%n(%s)", instant,
                    describe(timestamp), actual);
        }
        return this;
    }

    /** Verifies that the server timestamp is after {@code instant}. */
    public DataValueAssert hasServerTimestampAfter(Instant instant) {
        return timestampAfter("server", actual == null ? null : actual.serverTimestamp(), instant);
    }

    private DataValueAssert timestampAfter(String which, DateTime timestamp, Instant instant) {
        isNotNull();
        if (isUnset(timestamp) || !timestamp.toInstant().isAfter(instant)) {
            failWithMessage("Expecting a DataValue with a %s timestamp after %s but was %s%n(%s)", which, instant,
                    describe(timestamp), actual);
        }
        return this;
    }

    private StatusCode statusCodeOf() {
        return actual.statusCode() == null ? StatusCode.GOOD : actual.statusCode();
    }

    private String describeStatus() {
        return StatusNames.describe(statusCodeOf());
    }

    private static boolean isUnset(DateTime timestamp) {
        return timestamp == null || timestamp.isNull();
    }

    private static String describe(DateTime timestamp) {
        return isUnset(timestamp) ? "none" : timestamp.toInstant().toString();
    }
}
