package dev.opcua.spring.boot.observation;

import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.services.ServiceObserver;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;

/**
 * Makes every OPC UA service call the server runs a Micrometer {@link Observation}: started before the
 * handler, current on the worker thread while the handler runs (so spans and log correlation see it),
 * stopped when the response or ServiceFault is handed to the channel, with the failure recorded as its
 * error. Install it with {@link OpcUaServer.Builder#serviceObserver(ServiceObserver)}; it needs no
 * Spring.
 *
 * <p>With Spring Boot's metrics the Observation becomes the timer {@code opcua.server.requests}
 * [service, status, outcome, error] and the long task timer {@code opcua.server.requests.active}
 * [service]; with micrometer-tracing, a span named {@code opcua <Service>}.
 *
 * <p>Costs nothing while the registry is a no-op ({@link ObservationRegistry#NOOP}, or no handler
 * registered): {@link #started} then returns null without allocating, and the stack skips the call
 * entirely. An observation turned off by an {@code ObservationPredicate} (Spring Boot's
 * {@code management.observations.enable.opcua.server.requests=false}) is skipped as well.
 */
public final class ObservationServiceObserver implements ServiceObserver {

    private static final OpcUaServiceObservationConvention DEFAULT_CONVENTION =
            new DefaultOpcUaServiceObservationConvention();

    private final ObservationRegistry registry;
    private final OpcUaServiceObservationConvention convention;

    /** Observes with the {@link DefaultOpcUaServiceObservationConvention}. */
    public ObservationServiceObserver(ObservationRegistry registry) {
        this(registry, DEFAULT_CONVENTION);
    }

    /**
     * @param registry where the observations go
     * @param convention names and tags the observations; a matching global convention registered on the
     *        registry still takes precedence, as Micrometer defines
     */
    public ObservationServiceObserver(ObservationRegistry registry, OpcUaServiceObservationConvention convention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.convention = Objects.requireNonNull(convention, "convention");
    }

    @Override
    public Call started(String service, long secureChannelId) {
        if (registry.isNoop()) {
            return null;
        }
        OpcUaServiceObservationContext context = new OpcUaServiceObservationContext(service, secureChannelId);
        Observation observation = Observation.createNotStarted(null, convention, () -> context, registry);
        if (observation.isNoop()) {
            return null;
        }
        return new ObservedCall(observation.start(), context);
    }

    /** One service call in flight. */
    private record ObservedCall(Observation observation, OpcUaServiceObservationContext context) implements Call {

        @Override
        public Scope openScope() {
            return observation.openScope()::close;
        }

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
