package dev.opcua.cli;

import dev.opcua.stack.client.OpcUaClient;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that talks to the server at the endpoint: connects with the connection options, runs, and
 * disconnects whatever happens.
 */
public abstract class ClientCommand implements Callable<Integer> {

    @Mixin
    protected ConnectionOptions connection;

    @Mixin
    protected OutputOptions outputOptions;

    @Spec
    protected CommandSpec spec;

    /** Ctrl-C: long-running commands look at it and stop with what they have. */
    protected StopSignal stop;

    @Override
    public final Integer call() throws Exception {
        Output output = outputOptions.output(spec);
        prepare();
        try (StopSignal signal = StopSignal.install()) {
            stop = signal;
            try (OpcUaClient client = connection.connect()) {
                return run(client, output);
            } finally {
                output.clearProgress();
            }
        }
    }

    /** Checks what can be checked before connecting (node id syntax, values); throws {@link CliException}. */
    protected void prepare() {
    }

    /** @return the exit code */
    protected abstract int run(OpcUaClient client, Output output) throws Exception;
}
