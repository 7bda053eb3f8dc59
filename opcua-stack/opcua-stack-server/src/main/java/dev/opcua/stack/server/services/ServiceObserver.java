package dev.opcua.stack.server.services;

/**
 * Watches every service call the {@link ServiceDispatcher} runs, for metrics and tracing (the
 * Spring layer turns each call into a Micrometer Observation). Publish requests, which are parked
 * instead of run, and requests rejected before they ran are not observed.
 *
 * <p>Called on the worker that runs the request: {@link #started} before the handler, the returned
 * {@link Call#openScope() scope} around the handler's synchronous part, and {@link Call#finished}
 * once the response or ServiceFault is handed to the channel, on whichever thread completed it.
 * With {@link #NONE} the dispatcher skips all of it: no allocation, no call.
 */
@FunctionalInterface
public interface ServiceObserver {

    /** Observes nothing. */
    ServiceObserver NONE = (service, secureChannelId) -> null;

    /**
     * A service call starts.
     *
     * @param service the service's name as Part 4 writes it ({@code Read}, {@code CreateSubscription}, ...)
     * @param secureChannelId the secure channel the request came on
     * @return the observation of this call, or null to leave it unobserved
     */
    Call started(String service, long secureChannelId);

    /** One observed service call. */
    interface Call {

        /** Makes this call current on the calling thread until the returned scope is closed. */
        default Scope openScope() {
            return Scope.NOOP;
        }

        /**
         * The call ended.
         *
         * @param statusCode the serviceResult sent: Good (0) for a response, the ServiceFault's code otherwise
         * @param failure what made the handler fail, or null
         */
        void finished(long statusCode, Throwable failure);
    }

    /** The current-call scope of a thread; closing it does not throw. */
    @FunctionalInterface
    interface Scope extends AutoCloseable {

        Scope NOOP = () -> { };

        @Override
        void close();
    }
}
