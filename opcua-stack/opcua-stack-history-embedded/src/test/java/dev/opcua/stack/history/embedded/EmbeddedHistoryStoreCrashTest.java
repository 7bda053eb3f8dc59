package dev.opcua.stack.history.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.server.history.HistoryPage;
import dev.opcua.stack.server.history.HistoryQuery;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a JVM that writes to the embedded store (SIGKILL, no shutdown hook runs) while it appends, then
 * reopens the store: every value whose append was acknowledged is there, in order, and the store accepts
 * new values.
 */
class EmbeddedHistoryStoreCrashTest {

    @TempDir
    Path directory;

    @Test
    void a_killed_writer_loses_nothing_it_acknowledged() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                CrashingHistoryWriter.class.getName(), directory.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        AtomicInteger seen = new AtomicInteger(-1);
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.US_ASCII))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (!line.isBlank()) {
                        seen.set(Integer.parseInt(line.trim()));
                    }
                }
            } catch (IOException e) {
                // the stream closes when the child is killed
            }
        }, "crash-test-reader");
        reader.start();
        try {
            // let it write for a while (100 acknowledged batches), then kill it while it appends the next ones;
            // a child that died before is told by the assertions below
            await("100 batches acknowledged").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(10))
                    .until(() -> seen.get() >= 100 || !child.isAlive());
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
            reader.join(TimeUnit.SECONDS.toMillis(30));
        }
        // every batch printed was acknowledged; the child may have acknowledged more that were not read
        int acknowledged = seen.get();
        assertThat(acknowledged).as("acknowledged batches before the kill").isGreaterThanOrEqualTo(100);
        assertThat(new File(directory.toFile(), EmbeddedHistoryStore.FILE_NAME)).exists();

        try (EmbeddedHistoryStore reopened = EmbeddedHistoryStore.open(directory)) {
            int expected = (acknowledged + 1) * CrashingHistoryWriter.BATCH;
            HistoryPage page = reopened.read(HistoryQuery.forward(CrashingHistoryWriter.NODE, 0, Long.MAX_VALUE, 0))
                    .join();
            List<DataValue> values = page.values();
            assertThat(values.size()).isGreaterThanOrEqualTo(expected);
            for (int n = 0; n < values.size(); n++) {
                assertThat(values.get(n).value().value()).isEqualTo(n); // no gap, no torn value
            }
            // and it goes on working after the recovery
            reopened.append(List.of(new dev.opcua.stack.server.history.HistorySample(CrashingHistoryWriter.NODE,
                    values.get(0)))).join();
        }
    }
}
