package dev.opcua.spring.boot.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the Observation of an OPC UA service call. Declare a bean of this type to replace
 * {@link DefaultOpcUaServiceObservationConvention}, or extend that class to add key values.
 */
public interface OpcUaServiceObservationConvention extends ObservationConvention<OpcUaServiceObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof OpcUaServiceObservationContext;
    }
}
