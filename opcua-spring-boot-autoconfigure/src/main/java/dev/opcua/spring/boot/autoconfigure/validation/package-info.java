/**
 * The checks of the {@code opcua.*} properties at binding: Bean Validation constraints for their value types
 * that the standard constraints do not cover (durations, periods and data sizes), and
 * {@link dev.opcua.spring.boot.autoconfigure.validation.PropertyConstraints}, which executes the constraint
 * annotations of the properties classes without a Bean Validation provider (the starter brings none), called by
 * Spring Boot's binder for the properties classes that are
 * {@link dev.opcua.spring.boot.autoconfigure.validation.CheckedProperties}.
 */
package dev.opcua.spring.boot.autoconfigure.validation;
