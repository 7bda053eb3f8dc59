package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One run of an open62541 1.5.7 interop program ({@code interop_server} or {@code interop_client}, built by
 * {@code opcua-benchmarks/peers/open62541-1.5/build.sh}), its standard output read line by line by a thread of
 * its own. The programs are found in {@code -Dopen62541.dir}, else in
 * {@code opcua-benchmarks/target/open62541-1.5/bin} of the repository; a test that needs them is skipped when
 * they are absent. Closing sends SIGTERM, which both programs answer by stopping cleanly.
 */
final class Open62541Peer implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(60);
    private static final int LINES_IN_FAILURES = 40;

    private final String program;
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();

    private Open62541Peer(String program, Process process) {
        this.program = program;
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("READ FAILED " + e);
            }
        }, "open62541-" + program + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** The folder where the built programs are looked for. */
    static Path binDirectory() {
        Path project = Path.of(System.getProperty("opcua.project.dir", "../.."));
        String configured = System.getProperty("open62541.dir");
        return configured != null && !configured.isBlank() ? project.resolve(configured)
                : project.resolve("opcua-benchmarks/target/open62541-1.5/bin");
    }

    /** Whether both programs are built in {@link #binDirectory()}. */
    static boolean available() {
        Path bin = binDirectory();
        return Files.isExecutable(bin.resolve("interop_server")) && Files.isExecutable(bin.resolve("interop_client"));
    }

    /**
     * Skips the calling test, naming the build command, when the programs are absent. Called per test (a class
     * whose set-up is skipped shows as no tests at all in the Failsafe report, without the reason).
     */
    static void assumeAvailable() {
        assumeThat(available())
                .as("open62541 1.5.7 interop programs not built in %s: run opcua-benchmarks/peers/open62541-1.5/"
                        + "build.sh SRC_DIR (see its README.md) or give -Dopen62541.dir=DIR",
                        binDirectory().toAbsolutePath())
                .isTrue();
    }

    /** Starts {@code program} of {@link #binDirectory()} with the arguments; standard error goes with standard output. */
    static Open62541Peer start(String program, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(binDirectory().resolve(program).toString());
        command.addAll(args);
        return new Open62541Peer(program, new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** The next line starting with {@code prefix}; fails with what the program printed when none comes in time. */
    String awaitLine(String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line == null) {
                if (!process.isAlive() && lines.isEmpty()) {
                    break;
                }
                continue;
            }
            seen.add(line);
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError(program + " printed no line starting with '" + prefix + "'"
                + (process.isAlive() ? " within " + WAIT.toSeconds() + " s" : " before it exited") + "; "
                + output());
    }

    /** The exit status, once the program has ended by itself. */
    int exitCode() throws InterruptedException {
        if (!process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError(program + " did not exit within " + WAIT.toSeconds() + " s; " + output());
        }
        return process.exitValue();
    }

    /** The last lines it printed, for failure messages; lines not yet awaited stay for {@link #awaitLine}. */
    String output() {
        List<String> all = new ArrayList<>(seen);
        all.addAll(lines);
        List<String> tail = all.subList(Math.max(0, all.size() - LINES_IN_FAILURES), all.size());
        return "its last lines:\n  " + String.join("\n  ", tail);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(20, TimeUnit.SECONDS);
        }
    }
}
