package dev.opcua.cli;

/** The exit codes of {@code opcua}, as documented in docs/CLI.md. */
public final class ExitCodes {

    /** Everything asked for was done. */
    public static final int OK = 0;
    /** Bad usage: an unknown option, a missing argument, a node id or value that cannot be parsed. */
    public static final int USAGE = 1;
    /** No connection: unknown host, nothing listening, no answer, a rejected certificate, user or password. */
    public static final int CONNECTION = 2;
    /** Connected, but the server answered a Bad status for (part of) what was asked. */
    public static final int BAD_STATUS = 3;
    /** Anything else: a file that cannot be written, an unexpected error. */
    public static final int OTHER = 4;

    private ExitCodes() {
    }
}
