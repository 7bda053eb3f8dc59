package dev.opcua.spring.boot.observation;

import dev.opcua.spring.boot.client.OpcUaClientRequestObservers;
import dev.opcua.stack.client.services.RequestObserver;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;

/**
 * Makes every request an OPC UA client sends a Micrometer {@link Observation}: started just before the
 * request is written (on the sending thread, so an observation current there, such as the HTTP request
 * that caused the call, becomes its parent), stopped when the response, the ServiceFault or the failure
 * arrives, with the failure recorded as its error. What the client sends on a session is observed
 * (Read, Publish, the keep-alive Read ...); the set-up of the connection itself (GetEndpoints, OpenSecureChannel,
 * CreateSession, ActivateSession) is not.
 *
 * <p>With Spring Boot's metrics the Observation becomes the timer {@code opcua.client.requests}
 * [connection, service, status, outcome, error] and the long task timer
 * {@code opcua.client.requests.active} [connection, service]; with micrometer-tracing, a span named
 * {@code opcua <Service>}.
 *
 * <p>Costs nothing while the registry is a no-op ({@link ObservationRegistry#NOOP}, or no handler
 * registered): {@link #create} then gives {@link RequestObserver#NONE}, which the client skips
 * entirely. An observation turned off by an {@code ObservationPredicate} (Spring Boot's
 * {@code management.observations.enable.opcua.client.requests=false}) is not started either.
 */
public final class ObservationRequestObservers implements OpcUaClientRequestObservers {

    private static final OpcUaClientRequestObservationConvention DEFAULT_CONVENTION =
            new DefaultOpcUaClientRequestObservationConvention();

    private final ObservationRegistry registry;
    private final OpcUaClientRequestObservationConvention convention;

    /** Observes with the {@link DefaultOpcUaClientRequestObservationConvention}. */
    public ObservationRequestObservers(ObservationRegistry registry) {
        this(registry, DEFAULT_CONVENTION);
    }

    /**
     * @param registry where the observations go
     * @param convention names and tags the observations; a matching global convention registered on the
     *        registry still takes precedence, as Micrometer defines
     */
    public ObservationRequestObservers(ObservationRegistry registry,
            OpcUaClientRequestObservationConvention convention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.convention = Objects.requireNonNull(convention, "convention");
    }

    /** The observer of one connection's requests; {@link RequestObserver#NONE} while the registry is a no-op. */
    @Override
    public RequestObserver create(String connection) {
        Objects.requireNonNull(connection, "connection");
        return registry.isNoop() ? RequestObserver.NONE : service -> started(connection, service);
    }

    private RequestObserver.Call started(String connection, String service) {
        if (registry.isNoop()) {
            return null; // the registry lost its handlers after the client was built
        }
        OpcUaClientRequestObservationContext context = new OpcUaClientRequestObservationContext(connection, service);
        Observation observation = Observation.createNotStarted(null, convention, () -> context, registry);
        if (observation.isNoop()) {
            return null;
        }
        return new ObservedCall(observation.start(), context);
    }

    /** One request in flight. */
    private record ObservedCall(Observation observation, OpcUaClientRequestObservationContext context)
            implements RequestObserver.Call {

        @Override
        public void finished(long statusCode, Throwable failure) {
            context.setStatusCode(statusCode);
            if (failure != null) {
                observation.error(failure);
            }
            observation.stop();
        }
    }
}
