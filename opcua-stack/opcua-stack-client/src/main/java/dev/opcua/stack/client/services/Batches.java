package dev.opcua.stack.client.services;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Splits the operations of one call into requests of at most the server's OperationLimit, sends
 * them together and joins the results in the order of the operations; checks that the server
 * answered each operation exactly once (Part 4, 7.38: results are in request order, one per operation).
 */
public final class Batches {

    private Batches() {
    }

    /**
     * @param operations the operations of the call
     * @param limit the server's limit for this service; 0 for none
     * @param newArray makes a results array
     * @param call sends one request for a slice and returns its results (checked here)
     * @param what the service, for error messages
     * @return the joined results; fails when any request fails
     */
    public static <O, R> CompletableFuture<R[]> split(O[] operations, int limit, IntFunction<R[]> newArray,
            Function<O[], CompletableFuture<R[]>> call, String what) {
        if (limit <= 0 || operations.length <= limit) {
            return call.apply(operations).thenApply(r -> checkedResults(r, operations.length, what));
        }
        int batches = (operations.length + limit - 1) / limit;
        @SuppressWarnings("unchecked")
        CompletableFuture<R[]>[] parts = new CompletableFuture[batches];
        for (int b = 0; b < batches; b++) {
            int from = b * limit;
            int to = Math.min(operations.length, from + limit);
            O[] slice = Arrays.copyOfRange(operations, from, to);
            String sliceName = what + " (operations " + from + ".." + (to - 1) + " of " + operations.length + ")";
            parts[b] = call.apply(slice).thenApply(r -> checkedResults(r, slice.length, sliceName));
        }
        return CompletableFuture.allOf(parts).thenApply(ignored -> {
            R[] joined = newArray.apply(operations.length);
            for (int b = 0; b < batches; b++) {
                R[] part = parts[b].join();
                System.arraycopy(part, 0, joined, b * limit, part.length);
            }
            return joined;
        });
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
