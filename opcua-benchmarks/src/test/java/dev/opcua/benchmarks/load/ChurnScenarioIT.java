package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A {@code churn} against our server in a child JVM: by default 300 session cycles on 3 threads and 300
 * handshakes cut short, after which the server's connections, channels, sessions and open files are back
 * where they were, its threads and heap after a collection within the scenario's slack. The Maven
 * profile {@code churn} runs it with 100,000 cycles and 10,000 cuts ({@code churn.cycles},
 * {@code churn.cuts}; README, "Load harness").
 */
class ChurnScenarioIT {

    private static final String CYCLES = System.getProperty("churn.cycles", "300");
    private static final String CUTS = System.getProperty("churn.cuts", "300");

    @Test
    void a_server_churned_by_sessions_and_cut_handshakes_is_back_to_its_start() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // the harness's progress goes to the console as well: the profile's long run shows how far it is
        int code = LoadHarness.run(new String[] {"--server", "ours", "--scenario", "churn", "--sessions", "3",
            "--cycles", CYCLES, "--cuts", CUTS, "--nodes", "10"},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new TeeOutputStream(err, System.err), true, StandardCharsets.UTF_8));

        String log = err.toString(StandardCharsets.UTF_8);
        System.out.println(out.toString(StandardCharsets.UTF_8).strip()); // the RESULT line, for the profile's run
        assertThat(code).as(log).isZero();
        Map<String, String> result = parse(out.toString(StandardCharsets.UTF_8).strip());
        assertThat(result.get("cycles")).as(log).isEqualTo(CYCLES);
        assertThat(result.get("cycle_errors")).as(log).isEqualTo("0");
        assertThat(result.get("sessions_after")).as(log).isEqualTo(result.get("sessions_before"));
        assertThat(result.get("channels_after")).as(log).isEqualTo(result.get("channels_before"));
        assertThat(result.get("connections_after")).as(log).isEqualTo(result.get("connections_before"));
        assertThat(Long.parseLong(result.get("open_files_after"))).as(log)
                .isLessThanOrEqualTo(Long.parseLong(result.get("open_files_before")));
        assertThat(result.get("back_to_start")).as(log).isEqualTo("true");
    }

    /** Writes to a buffer and to a stream. */
    static final class TeeOutputStream extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        TeeOutputStream(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            first.flush();
            second.flush();
        }
    }

    private static Map<String, String> parse(String line) {
        assertThat(line).startsWith("RESULT ");
        Map<String, String> result = new HashMap<>();
        for (String pair : line.substring("RESULT ".length()).split(" ")) {
            int eq = pair.indexOf('=');
            result.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return result;
    }
}
