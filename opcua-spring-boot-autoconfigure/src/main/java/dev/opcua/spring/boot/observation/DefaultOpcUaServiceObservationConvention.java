package dev.opcua.spring.boot.observation;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default names of a service call's Observation: name {@value #NAME} (so the metrics bridge makes
 * the timer {@code opcua.server.requests} and the long task timer {@code opcua.server.requests.active}),
 * contextual name {@code opcua <Service>} (the span name), low-cardinality keys {@value #SERVICE},
 * and once answered {@value #STATUS} (the symbolic name of the serviceResult, {@code Good},
 * {@code BadSessionIdInvalid} ..., or {@code 0x...} for a code the specification does not name) and
 * {@value #OUTCOME} ({@code SUCCESS} for Good, else {@code FAILURE}); high-cardinality key
 * {@value #SECURE_CHANNEL_ID}.
 */
public class DefaultOpcUaServiceObservationConvention implements OpcUaServiceObservationConvention {

    /** The observation's name. */
    public static final String NAME = "opcua.server.requests";
    /** Low-cardinality key: the service. */
    public static final String SERVICE = "service";
    /** Low-cardinality key: the serviceResult's name. */
    public static final String STATUS = "status";
    /** Low-cardinality key: SUCCESS or FAILURE. */
    public static final String OUTCOME = "outcome";
    /** High-cardinality key: the secure channel id. */
    public static final String SECURE_CHANNEL_ID = "secure.channel.id";

    private static final KeyValue SUCCESS = KeyValue.of(OUTCOME, "SUCCESS");
    private static final KeyValue FAILURE = KeyValue.of(OUTCOME, "FAILURE");
    private static final KeyValue GOOD = KeyValue.of(STATUS, "Good");

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(OpcUaServiceObservationContext context) {
        return "opcua " + context.getService();
    }

    /** {@value #SERVICE}; once answered also {@value #STATUS} and {@value #OUTCOME}. */
    @Override
    public KeyValues getLowCardinalityKeyValues(OpcUaServiceObservationContext context) {
        KeyValue service = KeyValue.of(SERVICE, context.getService());
        if (!context.isFinished()) {
            // At start only the service is known; the in-flight long task timer is tagged by it alone.
            return KeyValues.of(service);
        }
        long code = context.getStatusCode();
        if (code == 0) {
            return KeyValues.of(service, GOOD, SUCCESS);
        }
        return KeyValues.of(service, KeyValue.of(STATUS, statusName(code)), StatusNames.isGood(code) ? SUCCESS : FAILURE);
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(OpcUaServiceObservationContext context) {
        return KeyValues.of(SECURE_CHANNEL_ID, Long.toString(context.getSecureChannelId()));
    }

    /** The specification's name of a StatusCode (its info bits ignored), or {@code 0x} and eight hex digits. */
    protected String statusName(long code) {
        return StatusNames.of(code);
    }
}
