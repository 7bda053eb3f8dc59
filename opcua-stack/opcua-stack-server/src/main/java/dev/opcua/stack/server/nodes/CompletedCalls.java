package dev.opcua.stack.server.nodes;

import java.util.concurrent.CompletableFuture;

/**
 * The one completed future that synchronous node manager calls return: a call that completes
 * before it returns has nothing to say in its future, and a new one per request would be garbage.
 * Nobody completes or obtrudes it (it is never handed to code outside the routing of requests).
 */
final class CompletedCalls {

    static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private CompletedCalls() {
    }
}
