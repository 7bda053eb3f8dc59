package dev.opcua.spring.boot.test.assertj;

import dev.opcua.stack.core.types.builtin.StatusCode;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a {@link StatusCode} (Part 4, 7.39): its severity, and its code compared without the info bits.
 * Failure messages name codes symbolically ({@code BadNodeIdUnknown (0x80340000)}).
 */
public class StatusCodeAssert extends AbstractAssert<StatusCodeAssert, StatusCode> {

    protected StatusCodeAssert(StatusCode actual) {
        super(actual, StatusCodeAssert.class);
    }

    /** Verifies that the severity is Good. */
    public StatusCodeAssert isGood() {
        isNotNull();
        if (!actual.isGood()) {
            failWithMessage("Expecting a Good status code but was %s", StatusNames.describe(actual));
        }
        return this;
    }

    /** Verifies that the severity is Uncertain. */
    public StatusCodeAssert isUncertain() {
        isNotNull();
        if (!actual.isUncertain()) {
            failWithMessage("Expecting an Uncertain status code but was %s", StatusNames.describe(actual));
        }
        return this;
    }

    /** Verifies that the severity is Bad. */
    public StatusCodeAssert isBad() {
        isNotNull();
        if (!actual.isBad()) {
            failWithMessage("Expecting a Bad status code but was %s", StatusNames.describe(actual));
        }
        return this;
    }

    /** Verifies that the code is {@code code} (a {@code StatusCodes} constant), ignoring the info bits. */
    public StatusCodeAssert is(int code) {
        isNotNull();
        if (!actual.isSameCode(code)) {
            failWithMessage("Expecting status code %s but was %s", StatusNames.describe(code),
                    StatusNames.describe(actual));
        }
        return this;
    }

    /** Verifies that the code is {@code code}'s, ignoring the info bits. */
    public StatusCodeAssert is(StatusCode code) {
        return is(code.value());
    }

    /** Verifies that the code is not {@code code}, ignoring the info bits. */
    public StatusCodeAssert isNot(int code) {
        isNotNull();
        if (actual.isSameCode(code)) {
            failWithMessage("Expecting a status code other than %s but was %s", StatusNames.describe(code),
                    StatusNames.describe(actual));
        }
        return this;
    }
}
