package dev.opcua.cli;

import java.time.Duration;
import picocli.CommandLine.ITypeConverter;

/** {@link Durations#parse} for picocli options. */
public final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        Duration d = Durations.parse(value);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("'" + value + "' must be a positive duration");
        }
        return d;
    }
}
