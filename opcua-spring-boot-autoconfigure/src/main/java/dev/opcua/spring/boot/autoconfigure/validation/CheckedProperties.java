package dev.opcua.spring.boot.autoconfigure.validation;

import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * A properties class whose constraint annotations {@link PropertyConstraints} checks when Spring Boot binds it:
 * the binder validates a target that is itself a {@link Validator}, with no Bean Validation provider needed.
 * Such a class is not {@code @Validated}, so that an application that brings a provider (as
 * spring-boot-starter-validation does) does not get each broken property reported twice.
 */
public interface CheckedProperties extends Validator {

    @Override
    default boolean supports(Class<?> type) {
        return getClass().isAssignableFrom(type);
    }

    @Override
    default void validate(Object target, Errors errors) {
        PropertyConstraints.check(target, errors);
    }
}
