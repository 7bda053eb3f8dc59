package dev.opcua.sample.client;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real Prometheus in a child process, scraping {@code /actuator/prometheus} of the given targets every
 * second into a temporary directory, and its HTTP API ({@code /api/v1/query}). Installs nothing: the
 * binary comes from {@link #binary()}.
 */
final class PrometheusServer implements AutoCloseable {

    /** The system property, then the environment variable, naming the binary. */
    static final String BINARY_PROPERTY = "prometheus.binary";
    static final String BINARY_ENV = "PROMETHEUS_BINARY";

    private final Process process;
    private final Path log;
    private final String baseUrl;
    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    private PrometheusServer(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.baseUrl = "http://127.0.0.1:" + port;
    }

    /** The binary: {@value #BINARY_PROPERTY}, else {@value #BINARY_ENV}, else /usr/bin/prometheus, if executable. */
    static Optional<Path> binary() {
        String configured = System.getProperty(BINARY_PROPERTY, System.getenv(BINARY_ENV));
        Path binary = Path.of(configured == null || configured.isBlank() ? "/usr/bin/prometheus" : configured);
        return Files.isExecutable(binary) ? Optional.of(binary) : Optional.empty();
    }

    /**
     * Starts Prometheus on a free port with a configuration scraping each target
     * ({@code job -> host:port}) every second, and waits until it is ready.
     */
    static PrometheusServer start(Path binary, Path directory, Map<String, String> targets) throws Exception {
        StringBuilder config = new StringBuilder("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                + "scrape_configs:\n");
        targets.forEach((job, target) -> config.append("  - job_name: ").append(job).append('\n')
                .append("    metrics_path: /actuator/prometheus\n")
                .append("    static_configs: [{targets: ['").append(target).append("']}]\n"));
        Path configFile = Files.writeString(directory.resolve("prometheus.yml"), config);
        int port = SamplePlants.freePort();
        Path log = directory.resolve("prometheus.log");
        Process process = new ProcessBuilder(binary.toString(), "--config.file=" + configFile,
                "--storage.tsdb.path=" + directory.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        PrometheusServer prometheus = new PrometheusServer(process, log, port);
        prometheus.awaitReady();
        return prometheus;
    }

    private void awaitReady() {
        try {
            await("Prometheus ready").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(this::ready);
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("Prometheus not ready within 60 s:\n" + log(), e);
        }
    }

    /** Whether {@code /-/ready} answers 200; fails at once when the process has exited. */
    private boolean ready() throws InterruptedException {
        if (!process.isAlive()) {
            throw new IllegalStateException("Prometheus exited with " + process.exitValue() + ":\n" + log());
        }
        try {
            return http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/-/ready")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false; // not listening yet
        }
    }

    /**
     * Evaluates {@code expression} now ({@code /api/v1/query}); the response's JSON, whose
     * {@code status} is {@code success} or {@code error}.
     */
    JsonNode query(String expression) throws Exception {
        String form = "query=" + URLEncoder.encode(expression, StandardCharsets.UTF_8);
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/query"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        return json.readTree(response.body());
    }

    /** The series of a successful instant query; empty for an error or no series. */
    List<JsonNode> series(String expression) throws Exception {
        JsonNode response = query(expression);
        List<JsonNode> series = new ArrayList<>();
        if ("success".equals(response.path("status").asString())) {
            response.path("data").path("result").forEach(series::add);
        }
        return series;
    }

    /** What Prometheus logged, for failure messages. */
    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops Prometheus (SIGTERM, then SIGKILL after 10 s); its data stays in the directory. */
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
