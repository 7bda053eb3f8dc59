/**
 * Bean Validation constraints for the value types of the {@code opcua.*} properties (durations, periods
 * and data sizes), which the standard constraints do not cover.
 */
package dev.opcua.spring.boot.autoconfigure.validation;
