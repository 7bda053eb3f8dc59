package dev.opcua.stack.client.services;

/**
 * Watches every request a connected client sends, for metrics and tracing (the Spring layer turns
 * each into a Micrometer timer sample and an Observation). Requests that wait out a reconnect are
 * observed when they are sent, not while they wait; a request refused before it is sent (not
 * connected, fail-fast) is not observed.
 *
 * <p>{@link #started} is called on the sending thread just before the request is written,
 * {@link Call#finished} where the request's future completes when the response, the ServiceFault or the
 * failure arrives: the client's callback executor, the I/O thread for a Publish response (and for every
 * response with {@code Runnable::run} as the executor), or the sending thread when the answer came before
 * it returned. With {@link #NONE} the client skips all of it: no allocation, no call.
 */
@FunctionalInterface
public interface RequestObserver {

    /** Observes nothing. */
    RequestObserver NONE = service -> null;

    /**
     * A request is about to be sent.
     *
     * @param service the service's name as Part 4 writes it ({@code Read}, {@code Publish}, ...)
     * @return the observation of this request, or null to leave it unobserved
     */
    Call started(String service);

    /** One observed request. */
    @FunctionalInterface
    interface Call {

        /**
         * The request ended.
         *
         * @param statusCode Good (0) for a response, the ServiceFault's serviceResult or the status of
         *        the failure (BadTimeout, BadConnectionClosed, ...) otherwise
         * @param failure why the request failed, or null
         */
        void finished(long statusCode, Throwable failure);
    }
}
