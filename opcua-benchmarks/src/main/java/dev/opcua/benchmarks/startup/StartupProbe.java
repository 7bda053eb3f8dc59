package dev.opcua.benchmarks.startup;

import dev.opcua.benchmarks.proc.ProcessCpu;
import dev.opcua.benchmarks.proc.ProcessMemory;
import dev.opcua.stack.client.discovery.DiscoveryClient;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Launches a server process and measures its start: the wall time from launching it until its OPC UA endpoint
 * answers GetEndpoints (Part 4, 5.4.4) and the CPU it used until then, then, after an idle pause without clients,
 * its resident memory. Prints one line
 * {@code STARTUP ready_ms=<n> ready_cpu_ms=<n> endpoints=<n> rss_kb=<n> peak_rss_kb=<n> stop_ms=<n> exit=<n>} and
 * stops the server with SIGTERM (forcibly after 30 s).
 *
 * <p>The probe's own JVM and client are warmed up before the launch (one refused GetEndpoints), so that the
 * measured time is the server's; while the port refuses, it asks again every {@code --poll-ms}.
 */
public final class StartupProbe {

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(5);

    private StartupProbe() {
    }

    public static void main(String[] args) throws Exception {
        ProbeOptions options;
        try {
            options = ProbeOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("StartupProbe: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(options));
    }

    private static int run(ProbeOptions options) throws IOException, InterruptedException {
        TransportQuotas quotas = TransportQuotas.DEFAULT;
        ClientResources resources = ClientResources.shared();
        if (answers(options.endpointUrl(), quotas, resources) >= 0) {
            System.err.println("StartupProbe: " + options.endpointUrl() + " answers before the launch: another "
                    + "server holds the port");
            return 1;
        }
        long launched = System.nanoTime();
        Process server = new ProcessBuilder(options.command())
                .directory(options.directory().toFile())
                .redirectErrorStream(true)
                .redirectOutput(options.log().toFile())
                .start();
        try {
            int endpoints = -1;
            long deadline = launched + options.timeout().toNanos();
            while (endpoints < 0) {
                if (!server.isAlive()) {
                    System.err.println("StartupProbe: the server exited with " + server.exitValue()
                            + " before it answered; its output: " + options.log());
                    return 1;
                }
                if (System.nanoTime() > deadline) {
                    System.err.println("StartupProbe: no answer from " + options.endpointUrl() + " within "
                            + options.timeout().toSeconds() + " s; the server's output: " + options.log());
                    return 1;
                }
                endpoints = answers(options.endpointUrl(), quotas, resources);
                if (endpoints < 0) {
                    Thread.sleep(options.pollInterval().toMillis());
                }
            }
            long readyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - launched);
            long readyCpuMs = ProcessCpu.millis(server.pid());
            Thread.sleep(options.idle().toMillis());
            ProcessMemory memory = ProcessMemory.of(server.pid());
            long stopping = System.nanoTime();
            int exit = stop(server);
            long stopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);
            System.out.printf("STARTUP ready_ms=%d ready_cpu_ms=%d endpoints=%d rss_kb=%d peak_rss_kb=%d stop_ms=%d"
                    + " exit=%d%n", readyMs, readyCpuMs, endpoints, memory.rssKb(), memory.peakRssKb(), stopMs, exit);
            return 0;
        } finally {
            if (server.isAlive()) {
                server.destroyForcibly().waitFor();
            }
        }
    }

    /** The number of endpoints the server announced, or -1 while it does not answer. */
    private static int answers(String endpointUrl, TransportQuotas quotas, ClientResources resources)
            throws InterruptedException {
        try {
            EndpointDescription[] endpoints = DiscoveryClient.getEndpoints(endpointUrl, quotas, resources)
                    .get(ATTEMPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return endpoints.length;
        } catch (ExecutionException | TimeoutException e) {
            return -1;
        }
    }

    private static int stop(Process server) throws InterruptedException {
        server.destroy();
        if (!server.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            System.err.println("StartupProbe: the server did not stop within " + STOP_TIMEOUT.toSeconds()
                    + " s of SIGTERM, killed");
            server.destroyForcibly().waitFor();
        }
        return server.exitValue();
    }
}
