package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.proc.ProcessCpu;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A bench server ({@code BenchServer} or {@code MiloBenchServer}) in a child JVM on this classpath, or
 * the open62541 peer's {@code bench_server} executable ({@code opcua-benchmarks/peers/open62541}), so its CPU is
 * measured apart from the harness. Its stderr goes to a log file; its stdout is read
 * for {@code READY <url>} and then drained by a named thread so the pipe never blocks it; that thread
 * hands the answers to {@link #stats()} probes ({@code STATS ...} lines) over a queue.
 *
 * <p>The system property {@value #JVM_OPTIONS} of the harness, options separated by spaces, goes to the
 * child's {@code java} command before the class path, e.g. {@code -XX:StartFlightRecording=...} to profile
 * the server. The system property {@value #CPUS} (a CPU list such as {@code 0} or {@code 0-3}) starts the
 * child under {@code taskset -c}, so that server and harness run on cores of their own, as on two machines
 * (the harness itself is started under {@code taskset} by whoever runs it; {@code taskset} execs the server,
 * whose process id, and so its CPU in /proc, stays the same).
 *
 * <p>For a secured run the child gets {@code --pki <java.io.tmpdir>/opcua-bench-pki-<ours|milo>
 * --trust-all-clients}: the directory is kept and reused by later runs, so that the server's key is
 * generated once per server kind and machine, not per run; it holds nothing but that self-signed
 * benchmark certificate. Every client certificate is accepted, as the harness creates a new one each run.
 *
 * <p>The open62541 peer takes no port 0: it gets a port found free just before. It is asked nothing on stdin
 * ({@link #stats()} and {@link #footprint()} return null at once; its CPU still comes from /proc) unless started
 * with {@value #PEER_HELD_SIMULATION} (the {@code items} scenario): then it answers the probe as far as a C process
 * can ({@code STATS} without allocation, {@code GC} without heap, {@code SIMULATE}).
 */
final class ChildServer implements AutoCloseable {

    /** The harness's system property with extra JVM options of the child. */
    static final String JVM_OPTIONS = "load.server.jvmOptions";
    /** The harness's system property with the CPUs the child runs on (Linux {@code taskset -c} list). */
    static final String CPUS = "load.server.cpus";
    /** Seconds a {@code GC} or {@code SIMULATE} probe may take. */
    private static final long FOOTPRINT_TIMEOUT_S = 120;
    /** The open62541 peer's option that holds its simulation until {@code SIMULATE} and asks for its probe. */
    static final String PEER_HELD_SIMULATION = "--simulate-on-command";
    /** The answer to {@code SIMULATE}. */
    private static final String SIMULATING = "SIMULATING";

    private final Process process;
    private final String url;
    private final Path log;
    private final Path pki;
    private final BlockingQueue<String> statsLines;
    private final boolean probes;

    private ChildServer(Process process, String url, Path log, Path pki, BlockingQueue<String> statsLines,
            boolean probes) {
        this.process = process;
        this.url = url;
        this.log = log;
        this.pki = pki;
        this.statsLines = statsLines;
        this.probes = probes;
    }

    /**
     * Starts {@code ours}, {@code milo} or {@code open62541} (the executable {@code peer}) on a free port
     * and waits for its READY line.
     *
     * @param secured whether it offers every security policy and mode (with a PKI directory) besides None
     * @param options further options of the server, e.g. {@code --simulate N,RATE}
     */
    static ChildServer start(String which, String peer, int nodes, boolean secured, List<String> options)
            throws Exception {
        return start(which, peer, nodes, secured, options, List.of());
    }

    /**
     * {@link #start(String, String, int, boolean, List)} with JVM options of the scenario's before those of
     * {@value #JVM_OPTIONS} (which thus win), e.g. the soak's fixed heap.
     */
    static ChildServer start(String which, String peer, int nodes, boolean secured, List<String> options,
            List<String> scenarioJvmOptions) throws Exception {
        boolean native62541 = which.equals("open62541");
        Path log = Files.createTempFile("load-server-" + which + "-", ".log");
        List<String> command = new ArrayList<>();
        String cpus = System.getProperty(CPUS, "").strip();
        if (!cpus.isEmpty()) {
            if (!cpus.matches("[0-9,-]+")) {
                throw new IllegalArgumentException("-D" + CPUS + " must be a CPU list such as 0 or 0-3,6, was '"
                        + cpus + "'");
            }
            command.addAll(List.of("taskset", "-c", cpus));
        }
        if (native62541) {
            if (peer == null || !Files.isExecutable(Path.of(peer))) {
                throw new IllegalArgumentException("no open62541 bench_server at " + peer + ": build it with "
                        + "opcua-benchmarks/peers/open62541/build.sh (see its README) or give --open62541 PATH");
            }
            command.addAll(List.of(peer, "--port", Integer.toString(freePort()), "--nodes", Integer.toString(nodes)));
        } else {
            String main = which.equals("milo") ? "dev.opcua.benchmarks.server.MiloBenchServer"
                    : "dev.opcua.benchmarks.server.BenchServer";
            String java = ProcessHandle.current().info().command()
                    .orElse(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
            command.add(java);
            command.addAll(scenarioJvmOptions);
            String jvmOptions = System.getProperty(JVM_OPTIONS, "").strip();
            if (!jvmOptions.isEmpty()) {
                command.addAll(List.of(jvmOptions.split("\\s+")));
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), main, "--port", "0", "--nodes",
                    Integer.toString(nodes)));
        }
        command.addAll(options);
        Path pki = null;
        if (secured) {
            pki = Path.of(System.getProperty("java.io.tmpdir"), "opcua-bench-pki-" + which);
            command.addAll(native62541 ? List.of("--pki", pki.toString())  // the peer accepts every client certificate
                    : List.of("--pki", pki.toString(), "--trust-all-clients"));
        }
        Process process = new ProcessBuilder(command)
                .redirectError(log.toFile())
                .start();
        CompletableFuture<String> ready = new CompletableFuture<>();
        BlockingQueue<String> statsLines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> readStdout(process, ready, statsLines), "load-server-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            String url = ready.get(readyTimeoutSeconds(nodes), TimeUnit.SECONDS);
            return new ChildServer(process, url, log, pki, statsLines,
                    !native62541 || options.contains(PEER_HELD_SIMULATION));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("server " + which + " did not print READY; see " + log, e);
        }
    }

    /**
     * How long a server may take to print READY: a minute, and a second more per 10,000 variables, as a server
     * of a million variables spends a while building its address space on a loaded machine.
     */
    static long readyTimeoutSeconds(int nodes) {
        return 60 + nodes / 10_000;
    }

    /** A TCP port nobody listens on right now, for a server that cannot be told to take any free one. */
    static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void readStdout(Process process, CompletableFuture<String> ready,
            BlockingQueue<String> statsLines) {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!ready.isDone() && line.startsWith("READY ")) {
                    ready.complete(line.substring("READY ".length()).trim());
                } else if (line.startsWith(ServerStats.PREFIX) || line.startsWith(Footprint.PREFIX)
                        || line.equals(SIMULATING)) {
                    statsLines.add(line);
                }
            }
            ready.completeExceptionally(new IOException("server stdout ended before READY"));
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
    }

    String url() {
        return url;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    /** The PKI directory of a secured server; null for None only. */
    Path pki() {
        return pki;
    }

    /** The child's user + system CPU so far in nanoseconds, from /proc/&lt;pid&gt;/stat; -1 if unreadable. */
    long cpuNanos() {
        return ProcessCpu.nanosOrUnknown(process.pid());
    }

    /**
     * Asks the child for its CPU and allocated bytes ({@code STATS} on its stdin) and waits up to 10 s
     * for the answer; null if it does not answer or the answer is malformed.
     */
    ServerStats stats() throws InterruptedException {
        String line = statsLine();
        if (line == null) {
            return null;
        }
        try {
            return ServerStats.parse(line);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Asks the child for its {@code STATS} line and waits up to 10 s for it; null if it does not answer or has no
     * probe.
     */
    String statsLine() throws InterruptedException {
        if (!probes) {
            return null;
        }
        statsLines.clear(); // a late answer to an earlier probe must not be taken for this one
        try {
            OutputStream in = process.getOutputStream();
            in.write("STATS\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
        } catch (IOException e) {
            return null;
        }
        return statsLines.poll(10, TimeUnit.SECONDS);
    }

    /**
     * Has the child collect garbage and report its footprint ({@code GC} on its stdin); waits up to
     * {@value #FOOTPRINT_TIMEOUT_S} s (two full collections of a heap of gigabytes take a while on a busy machine).
     * Null for a server without the probe, or when it does not answer; the file descriptors come from
     * /proc here.
     */
    Footprint footprint() throws InterruptedException {
        if (!probes) {
            return null;
        }
        String line = ask("GC", FOOTPRINT_TIMEOUT_S, answer -> answer.startsWith(Footprint.PREFIX));
        if (line == null) {
            return null;
        }
        try {
            return Footprint.parse(line, Footprint.openFiles(process.pid()));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Writes {@code command} to the child's stdin and waits up to {@code timeoutS} for the stdout line that
     * {@code answer} accepts; null when the pipe is closed or no such line came.
     */
    private String ask(String command, long timeoutS, java.util.function.Predicate<String> answer)
            throws InterruptedException {
        statsLines.clear(); // a late answer to an earlier probe must not be taken for this one
        try {
            OutputStream in = process.getOutputStream();
            in.write((command + "\n").getBytes(StandardCharsets.US_ASCII));
            in.flush();
        } catch (IOException e) {
            return null;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        for (String line = statsLines.poll(timeoutS, TimeUnit.SECONDS); line != null;
                line = statsLines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            if (answer.test(line)) {
                return line;
            }
        }
        return null;
    }

    /**
     * Starts the simulation of a child started with {@code -Dbench.simulateOnCommand=true} ({@code SIMULATE} on its
     * stdin) and waits up to {@value #FOOTPRINT_TIMEOUT_S} s for its answer (the probe answers one command at a
     * time: a footprint still collecting comes first).
     *
     * @throws IllegalStateException when the server has no such probe or does not answer
     */
    void startSimulation() throws InterruptedException {
        if (!probes) {
            throw new IllegalStateException("this server cannot be told to start its simulation");
        }
        if (ask("SIMULATE", FOOTPRINT_TIMEOUT_S, SIMULATING::equals) == null) {
            throw new IllegalStateException("the server did not answer SIMULATE within " + FOOTPRINT_TIMEOUT_S
                    + " s; see " + log);
        }
    }

    /** {@code kill -9}: ends the child at once (SIGKILL), as a crash would, and waits for it to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    boolean alive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
