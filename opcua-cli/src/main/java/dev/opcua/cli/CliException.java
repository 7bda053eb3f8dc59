package dev.opcua.cli;

/** A failure the user should read in one line, with the exit code it ends the command with (see {@link ExitCodes}). */
public final class CliException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** Text the user gave that cannot be used (exit code 1). */
    public static CliException usage(String message) {
        return new CliException(ExitCodes.USAGE, message);
    }

    /** The server answered with a Bad status (exit code 3). */
    public static CliException badStatus(String message) {
        return new CliException(ExitCodes.BAD_STATUS, message);
    }

    public int exitCode() {
        return exitCode;
    }
}
