package dev.opcua.cli;

import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Why a connection failed, in the words a person at a shell needs: which host, which user, which certificate file
 * to move. Every failure here ends the command with {@link ExitCodes#CONNECTION}.
 */
final class ConnectFailures {

    /** How the client words an Error message of the server. */
    private static final String SERVER_ERROR = "the server sent Error: ";

    private ConnectFailures() {
    }

    static CliException describe(Throwable failure, ConnectionOptions options) {
        Throwable cause = Failures.unwrap(failure);
        if (cause instanceof CliException cli) {
            return cli;
        }
        String where = options.hostAndPort();
        if (find(cause, UnknownHostException.class) != null || find(cause, UnresolvedAddressException.class) != null) {
            return fail("unknown host '" + where.substring(0, where.lastIndexOf(':')) + "': the name does not resolve",
                    cause);
        }
        if (find(cause, ConnectException.class) != null) {
            return fail("nothing listens at " + where + " (connection refused): is the server running, the port right?",
                    cause);
        }
        UaException ua = find(cause, UaException.class);
        if (ua == null) {
            return fail("cannot connect to " + options.endpoint() + ": " + cause, cause);
        }
        StatusCode status = ua.statusCode();
        int code = status.value();
        if (status.isSameCode(StatusCodes.BadUserAccessDenied) || status.isSameCode(StatusCodes.BadIdentityTokenRejected)
                || status.isSameCode(StatusCodes.BadIdentityTokenInvalid)) {
            String who = options.user() == null ? "anonymous access" : "user '" + options.user() + "'";
            return fail("the server refused " + who + " (" + status.name() + "): "
                    + (options.user() == null ? "it needs a user: --user NAME" : "wrong user name or password, or the "
                    + "user may not log in over this endpoint"), cause);
        }
        if (isCertificateStatus(code)) {
            return fail(certificateMessage(status, ua, options), cause);
        }
        if (status.isSameCode(StatusCodes.BadTimeout)) {
            return fail("no answer from " + where + " within " + Durations.format(options.timeout()) + " ("
                    + detail(ua) + "): is it an OPC UA server?", cause);
        }
        if (status.isSameCode(StatusCodes.BadSecurityPolicyRejected) || status.isSameCode(StatusCodes.BadSecurityModeRejected)
                || status.isSameCode(StatusCodes.BadNotFound) || status.isSameCode(StatusCodes.BadConfigurationError)) {
            return fail("no endpoint of " + options.endpoint() + " fits (" + status.name() + "): " + detail(ua)
                    + "; 'opcua endpoints " + options.endpoint() + "' lists what the server offers", cause);
        }
        return fail("cannot connect to " + options.endpoint() + " (" + status.name() + "): " + detail(ua), cause);
    }

    /** The exception's own words, without the status its message starts with (the messages here name it once). */
    static String detail(UaException e) {
        String message = e.getMessage();
        String prefix = e.statusCode() + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    private static boolean isCertificateStatus(int code) {
        StatusCode status = StatusCode.of(code);
        return status.name().startsWith("BadCertificate") || status.isSameCode(StatusCodes.BadSecurityChecksFailed);
    }

    private static String certificateMessage(StatusCode status, UaException ua, ConnectionOptions options) {
        Path pki = options.pki();
        if (detail(ua).startsWith(SERVER_ERROR)) {
            // the server's Error message (Part 6, 7.1.2.5): it did not accept this client's certificate
            String own = pki == null ? "the certificate of --certificate"
                    : pki.resolve("own").resolve("certs").resolve(ConnectionOptions.APPLICATION_NAME + ".der").toString();
            return "the server did not accept this client's certificate (" + status.name() + "): "
                    + detail(ua).substring(SERVER_ERROR.length()) + "; on the server, trust " + own + " (move it from"
                    + " the server's rejected/ to its trusted/ directory, or have a SecurityAdmin push it with 'opcua"
                    + " cert push ENDPOINT --add-trusted " + own + "')";
        }
        if (pki == null) {
            return "the server's certificate was not accepted (" + status.name() + "): " + detail(ua)
                    + "; give a PKI directory with --pki DIR, then trust the server's certificate there";
        }
        Path rejected = pki.resolve("rejected");
        Optional<Path> newest = newestFile(rejected);
        String move = newest.map(file -> "move " + file + " to " + pki.resolve("trusted").resolve("certs")
                + " (after checking it is the server's), or run 'opcua cert trust --pki " + pki + " " + file + "'")
                .orElse("trust the server's certificate with 'opcua cert trust --pki " + pki + " FILE'");
        return "the server's certificate is not trusted (" + status.name() + "): " + detail(ua) + "; " + move;
    }

    private static Optional<Path> newestFile(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).max(Comparator.comparing(ConnectFailures::modified));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private static CliException fail(String message, Throwable cause) {
        return new CliException(ExitCodes.CONNECTION, message, cause);
    }

    private static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
