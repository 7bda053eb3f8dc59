package dev.opcua.cli;

import dev.opcua.cli.commands.BrowseCommand;
import dev.opcua.cli.commands.CallCommand;
import dev.opcua.cli.commands.CertCommand;
import dev.opcua.cli.commands.EndpointsCommand;
import dev.opcua.cli.commands.HistoryCommand;
import dev.opcua.cli.commands.NodeSetCommand;
import dev.opcua.cli.commands.ReadCommand;
import dev.opcua.cli.commands.SubscribeCommand;
import dev.opcua.cli.commands.WriteCommand;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.UaException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code opcua}: an OPC UA client at the shell. Every command that talks to a server takes the endpoint URL as its
 * first argument; see docs/CLI.md.
 */
@Command(name = "opcua", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
        versionProvider = OpcUaCli.Version.class,
        description = "An OPC UA client at the shell: the endpoint URL is the first argument of every command.",
        subcommands = {EndpointsCommand.class, BrowseCommand.class, ReadCommand.class, WriteCommand.class,
            CallCommand.class, SubscribeCommand.class, HistoryCommand.class,
            NodeSetCommand.class, CertCommand.class},
        footer = {"", "Exit codes: 0 ok, 1 bad usage, 2 connection or security failure, 3 Bad status from the server,"
            + " 4 other failure."})
public final class OpcUaCli implements Runnable {

    @Spec
    CommandSpec spec;

    private final boolean terminal;

    /** @param terminal whether stdout is a terminal (colours, lines redrawn in place, the progress line) */
    public OpcUaCli(boolean terminal) {
        this.terminal = terminal;
    }

    public boolean terminal() {
        return terminal;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a command is required: endpoints, browse, read, write, call, "
                + "subscribe, history, nodeset or cert");
    }

    public static void main(String[] args) {
        quietLogging();
        boolean terminal = System.console() != null;
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(execute(out, err, terminal, args));
    }

    /**
     * The client's log only for errors, on stderr, unless the user set a level: what went wrong is the command's
     * own message, and a warning of the client's would say it a second time.
     */
    private static void quietLogging() {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        }
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    }

    /**
     * Runs one command line, as {@code main} does without exiting: with the profile of {@code --profile FILE} as
     * the defaults of the options, failures written to {@code err} as one sentence.
     *
     * @return the exit code (see {@link ExitCodes})
     */
    public static int execute(PrintWriter out, PrintWriter err, boolean terminal, String... args) {
        CommandLine commandLine = commandLine(out, err, terminal);
        try {
            ProfileDefaults profile = ProfileDefaults.fromArguments(args);
            if (profile != null) {
                commandLine.setDefaultValueProvider(profile);
            }
        } catch (CliException e) {
            err.println("opcua: " + e.getMessage());
            err.flush();
            return e.exitCode();
        }
        return commandLine.execute(args);
    }

    /** The command line with its streams and exit code handling; {@link #execute} adds the profile. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err, boolean terminal) {
        CommandLine commandLine = new CommandLine(new OpcUaCli(terminal));
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setParameterExceptionHandler(OpcUaCli::usageError);
        commandLine.setExecutionExceptionHandler((e, cl, parseResult) -> failure(e, cl));
        commandLine.setExitCodeExceptionMapper(e -> e instanceof ParameterException ? ExitCodes.USAGE : ExitCodes.OTHER);
        return commandLine;
    }

    private static int usageError(ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        PrintWriter err = cl.getErr();
        err.println("opcua: " + e.getMessage());
        err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help'.");
        err.flush();
        return ExitCodes.USAGE;
    }

    private static int failure(Exception e, CommandLine cl) {
        PrintWriter err = cl.getErr();
        int code;
        String message;
        Throwable cause = Failures.unwrap(e);
        if (cause instanceof CliException cli) {
            code = cli.exitCode();
            message = cli.getMessage();
        } else if (cause instanceof UaException ua) {
            code = ExitCodes.BAD_STATUS;
            message = ua.statusCode().name() + ": " + ConnectFailures.detail(ua);
        } else if (cause instanceof TimeoutException) {
            code = ExitCodes.CONNECTION;
            message = "the server did not answer in time (raise --timeout for slow servers or large requests)";
        } else if (cause instanceof IllegalArgumentException) {
            code = ExitCodes.USAGE;
            message = cause.getMessage();
        } else {
            code = ExitCodes.OTHER;
            message = cause.toString();
        }
        err.println("opcua " + cl.getCommandName() + ": " + message);
        if (code == ExitCodes.OTHER) {
            cause.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    /** The version of the jar (its manifest), or "development" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = OpcUaCli.class.getPackage().getImplementationVersion();
            return new String[] {"opcua " + (version == null ? "(development build)" : version)};
        }
    }
}
