package dev.opcua.stack.server.alarms;

import dev.opcua.stack.server.alarms.ConditionDefinition.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Declares the alarms (Part 9, 5.8) of one namespace of a {@link ConditionManager}; made by
 * {@link ConditionManager#builder(String)}. Paths are dot-separated and become the string NodeIds of
 * the condition instances.
 */
public final class ConditionManagerBuilder {

    private static final Duration DEFAULT_INPUT_SAMPLING_INTERVAL = Duration.ofMillis(250);

    private final String namespaceUri;
    private final List<ConditionDefinition> definitions = new ArrayList<>();
    private Duration inputSamplingInterval = DEFAULT_INPUT_SAMPLING_INTERVAL;

    ConditionManagerBuilder(String namespaceUri) {
        if (namespaceUri == null || namespaceUri.isEmpty()) {
            throw new IllegalArgumentException("namespaceUri must not be empty");
        }
        this.namespaceUri = namespaceUri;
    }

    /** How often the input variables are sampled for changes, 250 ms by default. */
    public ConditionManagerBuilder inputSamplingInterval(Duration interval) {
        if (interval == null || interval.toMillis() < 1) {
            throw new IllegalArgumentException("inputSamplingInterval must be at least 1 ms, was " + interval);
        }
        inputSamplingInterval = interval;
        return this;
    }

    /** An ExclusiveLimitAlarmType instance (Part 9, 5.8.19.3). */
    public ConditionManagerBuilder exclusiveLimitAlarm(String path, Consumer<LimitAlarmOptions> options) {
        options.accept(new LimitAlarmOptions(add(Kind.EXCLUSIVE_LIMIT, path)));
        return this;
    }

    /** A NonExclusiveLimitAlarmType instance (Part 9, 5.8.20). */
    public ConditionManagerBuilder nonExclusiveLimitAlarm(String path, Consumer<LimitAlarmOptions> options) {
        options.accept(new LimitAlarmOptions(add(Kind.NON_EXCLUSIVE_LIMIT, path)));
        return this;
    }

    /** An OffNormalAlarmType instance (Part 9, 5.8.24.2). */
    public ConditionManagerBuilder offNormalAlarm(String path, Consumer<OffNormalAlarmOptions> options) {
        options.accept(new OffNormalAlarmOptions(add(Kind.OFF_NORMAL, path)));
        return this;
    }

    private ConditionDefinition add(Kind kind, String path) {
        if (path == null || path.isEmpty() || path.startsWith(".") || path.endsWith(".") || path.contains("..")) {
            throw new IllegalArgumentException("a path is dot-separated names, was '" + path + "'");
        }
        for (ConditionDefinition d : definitions) {
            if (d.path.equals(path)) {
                throw new IllegalArgumentException("a condition with the path " + path + " is declared already");
            }
        }
        ConditionDefinition definition = new ConditionDefinition(kind, path);
        definitions.add(definition);
        return definition;
    }

    /** @throws IllegalArgumentException naming the condition when a source, input, limits or normal value is missing */
    public ConditionManager build() {
        definitions.forEach(ConditionDefinition::validate);
        return new ConditionManager(namespaceUri, definitions, inputSamplingInterval);
    }
}
