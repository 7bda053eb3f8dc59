package dev.opcua.sample.server.dashboards;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The sample names of a Prometheus text exposition ({@code /actuator/prometheus}), suffixes included:
 * a timer with histogram buckets has {@code _bucket}, {@code _count}, {@code _sum} and {@code _max}
 * samples, one without has no {@code _bucket}, so a dashboard's name is looked up as it is written.
 */
public final class PrometheusScrape {

    private static final String[] SUFFIXES = {"_bucket", "_count", "_sum", "_max"};

    private final Set<String> names = new TreeSet<>();

    /** Parses the exposition's sample lines; comments ({@code # HELP}, {@code # TYPE}) are skipped. */
    public PrometheusScrape(String exposition) {
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && !Character.isWhitespace(line.charAt(end))) {
                end++;
            }
            names.add(line.substring(0, end));
        }
    }

    /** Every sample name, sorted. */
    public Set<String> names() {
        return names;
    }

    /**
     * Why {@code name} is not in the scrape, or empty when it is. A missing {@code _bucket} of a timer
     * that is there says which property enables its buckets.
     */
    public Optional<String> absence(String name) {
        if (names.contains(name)) {
            return Optional.empty();
        }
        for (String suffix : SUFFIXES) {
            String base = name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : null;
            if (base != null && names.contains(base + "_count")) {
                return Optional.of(name + " is absent but " + base + "_count is there: the meter has no "
                        + suffix.substring(1) + " series (histogram buckets come with "
                        + "management.metrics.distribution.percentiles-histogram.<meter name>=true)");
            }
        }
        return Optional.of(name + " is absent from the scrape");
    }
}
