package dev.opcua.stack.core;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * What a failed future failed with: the cause inside CompletionException and ExecutionException wrappers, and its
 * status. One place for what the client, the server's services, PubSub and the command line all need.
 */
public final class Failures {

    private Failures() {
    }

    /** The cause under CompletionException and ExecutionException wrappers. */
    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** The UaException's status code, BadUnexpectedError for anything else. */
    public static int status(Throwable failure) {
        return statusCode(failure).value();
    }

    /** {@link #status} as a StatusCode. */
    public static StatusCode statusCode(Throwable failure) {
        return StatusCode.of(status(failure, StatusCodes.BadUnexpectedError));
    }

    /** The UaException's status code, {@code otherwise} for anything else. */
    public static int status(Throwable failure, int otherwise) {
        Throwable t = unwrap(failure);
        return t instanceof UaException e ? e.statusCode().value() : otherwise;
    }
}
