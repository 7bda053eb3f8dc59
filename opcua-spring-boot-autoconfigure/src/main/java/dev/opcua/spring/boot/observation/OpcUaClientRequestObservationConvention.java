package dev.opcua.spring.boot.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the Observation of a request an OPC UA client sends. Declare a bean of this type to
 * replace {@link DefaultOpcUaClientRequestObservationConvention}, or extend that class to add key values.
 */
public interface OpcUaClientRequestObservationConvention
        extends ObservationConvention<OpcUaClientRequestObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof OpcUaClientRequestObservationContext;
    }
}
