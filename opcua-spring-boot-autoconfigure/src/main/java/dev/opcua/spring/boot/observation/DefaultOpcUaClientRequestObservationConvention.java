package dev.opcua.spring.boot.observation;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default names of a client request's Observation: name {@value #NAME} (so the metrics bridge makes
 * the timer {@code opcua.client.requests} and the long task timer {@code opcua.client.requests.active}),
 * contextual name {@code opcua <Service>} (the span name, as on the server's side), low-cardinality keys
 * {@value #CONNECTION} and {@value #SERVICE}, and once ended {@value #STATUS} (the symbolic name of the
 * status, spelled as the server's observations spell it: {@code Good}, {@code BadTimeout} ..., or
 * {@code 0x...} for a code the specification does not name) and {@value #OUTCOME} ({@code SUCCESS} for
 * Good, else {@code FAILURE}).
 */
public class DefaultOpcUaClientRequestObservationConvention implements OpcUaClientRequestObservationConvention {

    /** The observation's name. */
    public static final String NAME = "opcua.client.requests";
    /** Low-cardinality key: the connection's name. */
    public static final String CONNECTION = "connection";
    /** Low-cardinality key: the service. */
    public static final String SERVICE = DefaultOpcUaServiceObservationConvention.SERVICE;
    /** Low-cardinality key: the status's name. */
    public static final String STATUS = DefaultOpcUaServiceObservationConvention.STATUS;
    /** Low-cardinality key: SUCCESS or FAILURE. */
    public static final String OUTCOME = DefaultOpcUaServiceObservationConvention.OUTCOME;

    private static final KeyValue SUCCESS = KeyValue.of(OUTCOME, "SUCCESS");
    private static final KeyValue FAILURE = KeyValue.of(OUTCOME, "FAILURE");
    private static final KeyValue GOOD = KeyValue.of(STATUS, "Good");

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(OpcUaClientRequestObservationContext context) {
        return "opcua " + context.getService();
    }

    /** {@value #CONNECTION} and {@value #SERVICE}; once ended also {@value #STATUS} and {@value #OUTCOME}. */
    @Override
    public KeyValues getLowCardinalityKeyValues(OpcUaClientRequestObservationContext context) {
        KeyValue connection = KeyValue.of(CONNECTION, context.getConnection());
        KeyValue service = KeyValue.of(SERVICE, context.getService());
        if (!context.isFinished()) {
            // the in-flight long task timer is tagged by what is known at the start
            return KeyValues.of(connection, service);
        }
        long code = context.getStatusCode();
        if (code == 0) {
            return KeyValues.of(connection, service, GOOD, SUCCESS);
        }
        return KeyValues.of(connection, service, KeyValue.of(STATUS, statusName(code)),
                StatusNames.isGood(code) ? SUCCESS : FAILURE);
    }

    /** The specification's name of a StatusCode (its info bits ignored), or {@code 0x} and eight hex digits. */
    protected String statusName(long code) {
        return StatusNames.of(code);
    }
}
