package dev.opcua.stack.client.transport;

import java.util.concurrent.Executor;

/**
 * The default {@link ClientResources#executor()}: a response completes its future on the thread that read it, the
 * client's I/O thread, without a hand-off. Continuations run there and must not block; the client's blocking calls
 * refuse such a thread ({@link ClientResources#checkMayBlock}).
 */
public final class IoThreadCompletion implements Executor {

    /** The one instance. */
    public static final IoThreadCompletion INSTANCE = new IoThreadCompletion();

    private IoThreadCompletion() {
    }

    @Override
    public void execute(Runnable task) {
        task.run();
    }

    @Override
    public String toString() {
        return "the I/O thread that read the response";
    }
}
