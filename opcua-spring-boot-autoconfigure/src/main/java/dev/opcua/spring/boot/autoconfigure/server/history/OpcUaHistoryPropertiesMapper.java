package dev.opcua.spring.boot.autoconfigure.server.history;

import dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyException;
import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.spring.boot.autoconfigure.server.InvalidOpcUaServerPropertyException;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.server.history.HistoryRecording;
import dev.opcua.stack.server.history.HistoryRetention;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import dev.opcua.stack.server.services.history.HistorySettings;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.util.ClassUtils;

/** Turns {@code opcua.server.history.*} into the stack's history settings, refusing invalid values by name. */
final class OpcUaHistoryPropertiesMapper {

    static final String PREFIX = "opcua.server.history";
    static final PropertyChecks CHECKS = new PropertyChecks(PREFIX, InvalidOpcUaServerPropertyException::new);

    /** Looked up by name: the JDBC store's module is optional. */
    private static final String JDBC_STORE = "dev.opcua.stack.history.jdbc.JdbcHistoryStore";

    private final OpcUaHistoryProperties properties;

    OpcUaHistoryPropertiesMapper(OpcUaHistoryProperties properties) {
        this.properties = properties;
    }

    /**
     * The store in memory when {@code store} names it. Any other store is made by its own configuration when its
     * module is on the class path (and, for jdbc, the application has a DataSource bean): reaching here, the error
     * that says which is missing.
     */
    HistoryStore fallbackStore(ClassLoader classLoader) {
        return switch (properties.getStore()) {
            case MEMORY -> new InMemoryHistoryStore();
            case EMBEDDED -> throw missingModule("embedded", "opcua-stack-history-embedded");
            case JDBC -> throw ClassUtils.isPresent(JDBC_STORE, classLoader)
                    ? CHECKS.invalid("store", "jdbc", "the application defines no DataSource bean",
                            "jdbc with a DataSource bean (spring.datasource.* or the application's own), embedded or"
                                    + " memory")
                    : missingModule("jdbc", "opcua-stack-history-jdbc");
        };
    }

    private static InvalidOpcUaPropertyException missingModule(String store, String artifactId) {
        return CHECKS.invalid("store", store, "the " + store + " history store's module, dev.opcua:" + artifactId
                        + ", is not on the class path",
                store + " with the dependency dev.opcua:" + artifactId + " added, or memory");
    }

    HistorySettings settings() {
        int read = CHECKS.nonNegative("max-nodes-per-read", properties.getMaxNodesPerRead(), "0 (no limit) or a count");
        int update = CHECKS.nonNegative("max-nodes-per-update", properties.getMaxNodesPerUpdate(),
                "0 (no limit) or a count");
        int points = CHECKS.positive("max-continuation-points", properties.getMaxContinuationPoints());
        int values = CHECKS.positive("max-return-data-values", properties.getMaxReturnDataValues());
        return new HistorySettings(read, 0, update, 0, points, values);
    }

    HistoryRecording recording() {
        Duration sampling = CHECKS.positiveDuration("sampling-interval", properties.getSamplingInterval());
        if (sampling.toMillis() < 10) {
            throw CHECKS.invalid("sampling-interval", sampling, "it is shorter than 10ms", "10ms or longer, such as 1s");
        }
        Duration check = CHECKS.positiveDuration("retention-check-interval", properties.getRetentionCheckInterval());
        if (check.toMillis() < 1000) {
            throw CHECKS.invalid("retention-check-interval", check, "it is shorter than 1s", "1s or longer, such as 1m");
        }
        Duration maxAge = properties.getMaxAge();
        if (maxAge != null) {
            CHECKS.positiveDuration("max-age", maxAge);
        }
        long maxBytes = 0;
        if (properties.getMaxSize() != null) {
            if (properties.getMaxSize().toBytes() <= 0) {
                throw CHECKS.invalid("max-size", properties.getMaxSize(), "it must be positive",
                        PropertyChecks.POSITIVE_SIZE + ", or unset for no limit");
            }
            maxBytes = properties.getMaxSize().toBytes();
        }
        Set<ExpandedNodeId> nodes = nodeIds("nodes", properties.getNodes());
        Set<ExpandedNodeId> notifiers = nodeIds("event-notifiers", properties.getEventNotifiers());
        return new HistoryRecording(nodes, properties.isNodesWritable(), sampling,
                new HistoryRetention(maxAge == null ? Duration.ZERO : maxAge, maxBytes), check)
                .withEventNotifiers(notifiers, properties.isEventNotifiersWritable());
    }

    /** The node ids of a list property, each checked by its index. */
    private static Set<ExpandedNodeId> nodeIds(String property, List<String> texts) {
        Set<ExpandedNodeId> ids = new LinkedHashSet<>();
        for (int i = 0; i < (texts == null ? 0 : texts.size()); i++) {
            String text = texts.get(i);
            try {
                ids.add(ExpandedNodeId.parse(text));
            } catch (RuntimeException e) {
                throw CHECKS.invalid(property + "[" + i + "]", text, "it is not a node id: " + e.getMessage(),
                        "nsu=<namespace URI>;s=<id>, ns=<index>;i=<id> or i=<id>", e);
            }
        }
        return ids;
    }
}
