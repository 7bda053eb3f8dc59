package dev.opcua.benchmarks.server;

import dev.opcua.stack.server.redundancy.RedundancyMode;
import dev.opcua.stack.server.redundancy.RedundancyPartner;
import dev.opcua.stack.server.redundancy.RedundancySettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The options of {@link BenchServer} that make it one server of a redundant pair, for the load harness's
 * {@code failover} scenario: {@code --redundancy cold|warm|hot} (the Server object's RedundancySupport),
 * {@code --application-uri URI} (each server of a set needs its own ServerUri, which is its ApplicationUri),
 * {@code --partner URI=URL} (the other server's ApplicationUri and endpoint URL) and {@code --simulate-epoch
 * MILLIS} (the {@link ValueSimulator}'s wall-clock epoch, so that both servers of the pair set the same values
 * at the same time), and {@code --durable-dir DIR}, where the server keeps its durable subscriptions
 * ({@code MVStoreDurableSubscriptionStore}) so that they survive a restart of the process. A HotAndMirrored server
 * keeps its sessions in the PostgreSQL database at {@code --state-store-url JDBC_URL} (with
 * {@code --state-store-user} and {@code --state-store-password}), which both servers of the pair share. They are
 * taken out of the arguments before {@link BenchOptions#parse}.
 *
 * @param mode the redundancy mode; {@link RedundancyMode#None} without {@code --redundancy}
 * @param applicationUri the server's ApplicationUri; null for the bench server's usual one
 * @param partner the other server of the set; null without {@code --partner}
 * @param simulateEpochMillis the simulation's epoch, -1 for none
 * @param durableDirectory the durable subscription store's directory; null to keep them in memory only
 * @param stateStore the PostgreSQL database of a HotAndMirrored pair's session states; null for the other modes
 */
public record PairOptions(RedundancyMode mode, String applicationUri, RedundancyPartner partner,
        long simulateEpochMillis, Path durableDirectory, StateStoreDatabase stateStore) {

    public static final String USAGE = "pair options: --redundancy cold|warm|hot|hot-and-mirrored,"
            + " --application-uri URI, --partner URI=opc.tcp://host:port, --simulate-epoch MILLIS, --durable-dir DIR,"
            + " --state-store-url JDBC_URL --state-store-user USER --state-store-password PASSWORD"
            + " (hot-and-mirrored: the pair's shared PostgreSQL)";

    public static final PairOptions NONE = new PairOptions(RedundancyMode.None, null, null, -1, null, null);

    /**
     * The PostgreSQL database in which a HotAndMirrored pair keeps its session states.
     *
     * @param url its JDBC URL, {@code jdbc:postgresql://host:port/database}
     * @param user the user; null for the URL's or the driver's default
     * @param password the password; null for none
     */
    public record StateStoreDatabase(String url, String user, String password) {

        public StateStoreDatabase {
            if (url == null || !url.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("--state-store-url must be a PostgreSQL JDBC URL"
                        + " (jdbc:postgresql://host:port/database), was '" + url + "'");
            }
        }

        @Override
        public String toString() { // never the password
            return url + (user == null ? "" : " as " + user);
        }
    }

    public PairOptions {
        if (mode != RedundancyMode.None && partner == null) {
            throw new IllegalArgumentException("--redundancy " + mode + " needs --partner URI=URL");
        }
        if (mode == RedundancyMode.None && partner != null) {
            throw new IllegalArgumentException("--partner needs --redundancy cold|warm|hot|hot-and-mirrored");
        }
        if (mode == RedundancyMode.HotAndMirrored && stateStore == null) {
            throw new IllegalArgumentException("--redundancy hot-and-mirrored needs --state-store-url JDBC_URL: the"
                    + " pair's sessions are kept in a PostgreSQL database both servers share");
        }
        if (mode != RedundancyMode.HotAndMirrored && stateStore != null) {
            throw new IllegalArgumentException("--state-store-url needs --redundancy hot-and-mirrored, was "
                    + mode);
        }
    }

    /** The server's redundancy settings. */
    public RedundancySettings settings() {
        return mode == RedundancyMode.None ? RedundancySettings.NONE : RedundancySettings.of(mode, partner);
    }

    /**
     * Takes the pair options out of {@code args}, which then holds the others.
     *
     * @throws IllegalArgumentException naming the bad option
     */
    public static PairOptions extract(List<String> args) {
        RedundancyMode mode = RedundancyMode.None;
        String applicationUri = null;
        RedundancyPartner partner = null;
        long epoch = -1;
        Path durableDirectory = null;
        String stateStoreUrl = null;
        String stateStoreUser = null;
        String stateStorePassword = null;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String name = args.get(i);
            boolean ours = switch (name) {
                case "--redundancy", "--application-uri", "--partner", "--simulate-epoch", "--durable-dir",
                        "--state-store-url", "--state-store-user", "--state-store-password" -> true;
                default -> false;
            };
            if (!ours) {
                rest.add(name);
                continue;
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException("missing value for " + name + "; " + USAGE);
            }
            String value = args.get(++i);
            switch (name) {
                case "--redundancy" -> mode = switch (value.toLowerCase(Locale.ROOT)) {
                    case "cold" -> RedundancyMode.Cold;
                    case "warm" -> RedundancyMode.Warm;
                    case "hot" -> RedundancyMode.Hot;
                    case "hot-and-mirrored" -> RedundancyMode.HotAndMirrored;
                    default -> throw new IllegalArgumentException("--redundancy must be cold, warm, hot or"
                            + " hot-and-mirrored, was '" + value + "'; " + USAGE);
                };
                case "--state-store-url" -> stateStoreUrl = value;
                case "--state-store-user" -> stateStoreUser = value;
                case "--state-store-password" -> stateStorePassword = value;
                case "--application-uri" -> applicationUri = value;
                case "--durable-dir" -> durableDirectory = Path.of(value);
                case "--partner" -> {
                    int eq = value.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("--partner needs URI=URL, was '" + value + "'; " + USAGE);
                    }
                    partner = new RedundancyPartner(value.substring(0, eq), value.substring(eq + 1));
                }
                default -> {
                    try {
                        epoch = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--simulate-epoch needs milliseconds, was '" + value
                                + "'; " + USAGE, e);
                    }
                }
            }
        }
        args.clear();
        args.addAll(rest);
        if (stateStoreUrl == null && (stateStoreUser != null || stateStorePassword != null)) {
            throw new IllegalArgumentException("--state-store-user and --state-store-password need --state-store-url; "
                    + USAGE);
        }
        return new PairOptions(mode, applicationUri, partner, epoch, durableDirectory, stateStoreUrl == null ? null
                : new StateStoreDatabase(stateStoreUrl, stateStoreUser, stateStorePassword));
    }
}
