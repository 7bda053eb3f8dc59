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
 * ({@code MVStoreDurableSubscriptionStore}) so that they survive a restart of the process. They are taken out of
 * the arguments before {@link BenchOptions#parse}.
 *
 * @param mode the redundancy mode; {@link RedundancyMode#None} without {@code --redundancy}
 * @param applicationUri the server's ApplicationUri; null for the bench server's usual one
 * @param partner the other server of the set; null without {@code --partner}
 * @param simulateEpochMillis the simulation's epoch, -1 for none
 * @param durableDirectory the durable subscription store's directory; null to keep them in memory only
 */
public record PairOptions(RedundancyMode mode, String applicationUri, RedundancyPartner partner,
        long simulateEpochMillis, Path durableDirectory) {

    public static final String USAGE = "pair options: --redundancy cold|warm|hot, --application-uri URI,"
            + " --partner URI=opc.tcp://host:port, --simulate-epoch MILLIS, --durable-dir DIR";

    public static final PairOptions NONE = new PairOptions(RedundancyMode.None, null, null, -1, null);

    public PairOptions {
        if (mode != RedundancyMode.None && partner == null) {
            throw new IllegalArgumentException("--redundancy " + mode + " needs --partner URI=URL");
        }
        if (mode == RedundancyMode.None && partner != null) {
            throw new IllegalArgumentException("--partner needs --redundancy cold|warm|hot");
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
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String name = args.get(i);
            boolean ours = switch (name) {
                case "--redundancy", "--application-uri", "--partner", "--simulate-epoch", "--durable-dir" -> true;
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
                    default -> throw new IllegalArgumentException("--redundancy must be cold, warm or hot, was '"
                            + value + "'; " + USAGE);
                };
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
        return new PairOptions(mode, applicationUri, partner, epoch, durableDirectory);
    }
}
