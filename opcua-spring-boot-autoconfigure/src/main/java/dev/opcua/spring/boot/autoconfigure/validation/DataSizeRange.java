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
import org.springframework.util.unit.DataSize;

/**
 * The {@link DataSize} is from {@link #min()} to {@link #max()} bytes. The default range is what the
 * stack's int sizes hold: 1 byte to 2 GiB - 1. Null is invalid: a property set to an empty value has no
 * default to fall back on.
 */
@Documented
@Retention(RUNTIME)
@Target({FIELD, TYPE_USE})
@Constraint(validatedBy = DataSizeRange.Validator.class)
public @interface DataSizeRange {

    /** Fewest bytes. */
    long min() default 1;

    /** Most bytes. */
    long max() default Integer.MAX_VALUE;

    String message() default "must be a size of {min} to {max} bytes, such as 65535B, 512KB or 2MB";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /**
     * Checks a {@link DataSize}: {@link PropertyConstraints} calls {@link #isValid(DataSize, long, long)}; the
     * class lets a Bean Validation provider check the constraint too.
     */
    final class Validator implements ConstraintValidator<DataSizeRange, DataSize> {

        private long min;
        private long max;

        @Override
        public void initialize(DataSizeRange constraint) {
            min = constraint.min();
            max = constraint.max();
        }

        @Override
        public boolean isValid(DataSize value, ConstraintValidatorContext context) {
            return isValid(value, min, max);
        }

        /** Whether {@code value} is set and from {@code min} to {@code max} bytes. */
        public static boolean isValid(DataSize value, long min, long max) {
            return value != null && value.toBytes() >= min && value.toBytes() <= max;
        }
    }
}
