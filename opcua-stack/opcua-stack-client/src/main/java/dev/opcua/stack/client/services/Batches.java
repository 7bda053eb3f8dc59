package dev.opcua.stack.client.services;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Splits the operations of one call into requests of at most the server's OperationLimit, sends
 * them (together, or one after the other for operations that change the server) and joins the
 * results in the order of the operations; checks that the server answered each operation exactly
 * once (Part 4, 7.38: results are in request order, one per operation).
 */
public final class Batches {

    private Batches() {
    }

    /**
     * Splits a call whose operations do not change anything (Read, Browse, Translate, Register): the
     * requests are sent together.
     *
     * @param operations the operations of the call
     * @param limit the server's limit for this service; 0 for none
     * @param newArray makes a results array
     * @param call sends one request for a slice and returns its results (checked here)
     * @param what the service, for error messages
     * @return the joined results; fails when any request fails
     */
    public static <O, R> CompletableFuture<R[]> split(O[] operations, int limit, IntFunction<R[]> newArray,
            Function<O[], CompletableFuture<R[]>> call, String what) {
        return split(operations, limit, newArray, call, what, false);
    }

    /**
     * Splits a call whose operations change the server (Write, Call): each request is sent once the
     * one before was answered, so that the operations take effect in the order of the call, as they
     * would in one request (a later write of a node is not overtaken by an earlier one). A failed
     * request fails the call and the rest is not sent.
     */
    public static <O, R> CompletableFuture<R[]> splitInOrder(O[] operations, int limit, IntFunction<R[]> newArray,
            Function<O[], CompletableFuture<R[]>> call, String what) {
        return split(operations, limit, newArray, call, what, true);
    }

    private static <O, R> CompletableFuture<R[]> split(O[] operations, int limit, IntFunction<R[]> newArray,
            Function<O[], CompletableFuture<R[]>> call, String what, boolean inOrder) {
        if (limit <= 0 || operations.length <= limit) {
            return call.apply(operations).thenApply(r -> checkedResults(r, operations.length, what));
        }
        int batches = (operations.length + limit - 1) / limit;
        R[] joined = newArray.apply(operations.length);
        CompletableFuture<Void> previous = CompletableFuture.completedFuture(null);
        @SuppressWarnings("unchecked")
        CompletableFuture<Void>[] parts = new CompletableFuture[batches];
        for (int b = 0; b < batches; b++) {
            int from = b * limit;
            int to = Math.min(operations.length, from + limit);
            O[] slice = Arrays.copyOfRange(operations, from, to);
            String sliceName = what + " (operations " + from + ".." + (to - 1) + " of " + operations.length + ")";
            Function<Void, CompletableFuture<Void>> send = ignored -> call.apply(slice).thenAccept(r ->
                    System.arraycopy(checkedResults(r, slice.length, sliceName), 0, joined, from, slice.length));
            parts[b] = inOrder ? previous.thenCompose(send) : send.apply(null);
            previous = parts[b];
        }
        return (inOrder ? previous : CompletableFuture.allOf(parts)).thenApply(ignored -> joined);
    }

    /**
     * The results of a response, which must hold one per operation.
     *
     * @throws UaException BadUnexpectedError naming the service and both counts when they differ
     */
    public static <R> R[] checkedResults(R[] results, int operations, String what) {
        int n = results == null ? 0 : results.length;
        if (n != operations) {
            throw new UaException(StatusCodes.BadUnexpectedError, what + ": the server returned " + n
                    + " results for " + operations + " operations");
        }
        return results;
    }
}
