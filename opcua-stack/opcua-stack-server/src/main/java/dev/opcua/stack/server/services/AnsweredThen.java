package dev.opcua.stack.server.services;

import dev.opcua.stack.core.types.UaStructure;
import java.util.concurrent.CompletableFuture;

/**
 * A handler's response with work that must reach the client after it: the {@link ServiceDispatcher} sends
 * the response, then runs {@link #afterSent()} on the same thread, so that what that work sends on the
 * channel follows the response. CloseSession uses it to answer first and then close the session, failing
 * its outstanding Publish requests with BadSessionClosed (Part 4, 5.7.4.1), so a client that reacts to those
 * failures has its CloseSession response already.
 *
 * @param <T> the response type
 */
public final class AnsweredThen<T extends UaStructure> extends CompletableFuture<T> {

    private final Runnable afterSent;

    private AnsweredThen(Runnable afterSent) {
        this.afterSent = afterSent;
    }

    /** {@code response}, completed, and {@code afterSent} to run once it was sent. */
    public static <T extends UaStructure> AnsweredThen<T> of(T response, Runnable afterSent) {
        AnsweredThen<T> answered = new AnsweredThen<>(afterSent);
        answered.complete(response);
        return answered;
    }

    /** Runs the work that follows the response (whether or not the response could be sent). */
    public void afterSent() {
        afterSent.run();
    }
}
