package dev.opcua.spring.boot.autoconfigure.validation;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.time.Duration;
import java.time.Period;
import java.time.temporal.TemporalAmount;

/**
 * The {@link Duration} or {@link Period} is longer than zero ({@link #orZero()}: not negative). Unlike
 * the standard constraints, null is invalid too: a property set to an empty value has no default to fall
 * back on.
 */
@Documented
@Retention(RUNTIME)
@Target({FIELD, TYPE_USE})
@Constraint(validatedBy = PositiveDuration.Validator.class)
public @interface PositiveDuration {

    /** Whether zero is valid too. */
    boolean orZero() default false;

    String message() default "must be a positive duration, such as 500ms, 30s, 10m or 1h";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /**
     * Checks a {@link Duration} or a {@link Period}: no unit negative, and not every unit zero unless zero
     * is allowed. {@link PropertyConstraints} calls {@link #isValid(TemporalAmount, boolean)}; the class lets a
     * Bean Validation provider check the constraint too.
     */
    final class Validator implements ConstraintValidator<PositiveDuration, TemporalAmount> {

        private boolean orZero;

        @Override
        public void initialize(PositiveDuration constraint) {
            orZero = constraint.orZero();
        }

        @Override
        public boolean isValid(TemporalAmount value, ConstraintValidatorContext context) {
            return isValid(value, orZero);
        }

        /** Whether {@code value} is set, with no unit negative and, unless {@code orZero}, not all zero. */
        public static boolean isValid(TemporalAmount value, boolean orZero) {
            if (value == null) {
                return false;
            }
            boolean negative = value.getUnits().stream().anyMatch(unit -> value.get(unit) < 0);
            boolean zero = value.getUnits().stream().allMatch(unit -> value.get(unit) == 0);
            return !negative && (orZero || !zero);
        }
    }
}
