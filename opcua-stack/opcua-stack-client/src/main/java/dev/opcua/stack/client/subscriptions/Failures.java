package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The status of a failed service call. */
final class Failures {

    private Failures() {
    }

    static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** The UaException's status code, BadUnexpectedError for anything else. */
    static int status(Throwable failure) {
        Throwable t = unwrap(failure);
        return t instanceof UaException e ? e.statusCode().value() : StatusCodes.BadUnexpectedError;
    }
}
