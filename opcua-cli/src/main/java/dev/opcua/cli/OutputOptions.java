package dev.opcua.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** The output options every command has: {@code --json} and {@code --no-color}. */
public final class OutputOptions {

    @Option(names = "--json", description = "Machine-readable output: one JSON object per result and line on stdout.")
    boolean json;

    @Option(names = "--no-color", description = "No colours, even on a terminal.")
    boolean noColor;

    /** The output of the command of {@code spec}, to the streams of its command line. */
    public Output output(CommandSpec spec) {
        boolean terminal = spec.root().userObject() instanceof OpcUaCli cli && cli.terminal();
        return new Output(spec.commandLine().getOut(), spec.commandLine().getErr(), json, !noColor, terminal);
    }
}
