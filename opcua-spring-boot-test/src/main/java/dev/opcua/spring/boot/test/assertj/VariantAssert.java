package dev.opcua.spring.boot.test.assertj;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a {@link Variant} (Part 6, 5.2.2.16): its value, its built-in type, scalar or array. */
public class VariantAssert extends AbstractAssert<VariantAssert, Variant> {

    protected VariantAssert(Variant actual) {
        super(actual, VariantAssert.class);
    }

    /**
     * Verifies that the variant holds {@code expected}: equal by {@link Objects#deepEquals} (arrays element by
     * element), so the Java type must match too ({@code 240.0} for a Double, {@code 240} for an Int32).
     */
    public VariantAssert hasValue(Object expected) {
        isNotNull();
        Object value = actual.value();
        if (!Objects.deepEquals(value, expected)) {
            failWithMessage("Expecting a variant with value %s but was %s", describe(expected), describe(value));
        }
        return this;
    }

    /** Verifies that the value satisfies {@code requirements} (AssertJ assertions on it). */
    public VariantAssert hasValueSatisfying(Consumer<Object> requirements) {
        isNotNull();
        requirements.accept(actual.value());
        return this;
    }

    /** Verifies that the variant is empty (Null, Part 6, 5.2.2.16). */
    public VariantAssert hasNullValue() {
        isNotNull();
        if (!actual.isNull()) {
            failWithMessage("Expecting a Null variant but was %s", describe(actual.value()));
        }
        return this;
    }

    /** Verifies the built-in type of the value (for an array, of its elements). */
    public VariantAssert hasType(BuiltinType type) {
        isNotNull();
        if (actual.type() != type) {
            failWithMessage("Expecting a variant of type %s but was %s holding %s", type, actual.type(),
                    describe(actual.value()));
        }
        return this;
    }

    /** Verifies that the value is an array (or a matrix). */
    public VariantAssert isArray() {
        isNotNull();
        if (!actual.isArray() && !actual.isMatrix()) {
            failWithMessage("Expecting an array variant but was the scalar %s", describe(actual.value()));
        }
        return this;
    }

    /** Verifies that the value is a scalar. */
    public VariantAssert isScalar() {
        isNotNull();
        if (actual.isArray() || actual.isMatrix()) {
            failWithMessage("Expecting a scalar variant but was the array %s", describe(actual.value()));
        }
        return this;
    }

    /** A value in a failure message: its text and its Java type, so that 240 (Integer) and 240.0 (Double) differ. */
    static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        String text = String.valueOf(value);
        if (value.getClass().isArray()) {
            String wrapped = Arrays.deepToString(new Object[] {value});
            text = wrapped.substring(1, wrapped.length() - 1);
        }
        return text + " (" + value.getClass().getSimpleName() + ")";
    }
}
