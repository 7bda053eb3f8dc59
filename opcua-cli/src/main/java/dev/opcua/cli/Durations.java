package dev.opcua.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** Durations as typed ({@code 10s}, {@code 500ms}, {@code 2m}, {@code 1h}, {@code PT10S}; a bare number is seconds). */
public final class Durations {

    private Durations() {
    }

    public static Duration parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("pt") || t.startsWith("p")) {
                return Duration.parse(text.strip());
            }
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            }
            if (t.endsWith("s")) {
                return Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
            }
            if (t.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            if (t.endsWith("h")) {
                return Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            return Duration.ofMillis(Math.round(Double.parseDouble(t) * 1000));
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: expected e.g. 10s, 500ms, 2m, 1h or "
                    + "PT10S");
        }
    }

    /** 1.5 s, 250 ms, 2 min. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 120_000) {
            return (ms % 1000 == 0 ? String.valueOf(ms / 1000) : String.format(Locale.ROOT, "%.1f", ms / 1000.0)) + " s";
        }
        return (ms / 60_000) + " min";
    }
}
