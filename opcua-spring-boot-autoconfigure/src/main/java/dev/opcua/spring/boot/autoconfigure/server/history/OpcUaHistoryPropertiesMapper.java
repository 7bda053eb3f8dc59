package dev.opcua.spring.boot.autoconfigure.server.history;

import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.spring.boot.autoconfigure.server.InvalidOpcUaServerPropertyException;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.history.embedded.EmbeddedHistoryStore;
import dev.opcua.stack.history.embedded.SyncPolicy;
import dev.opcua.stack.server.history.HistoryRecording;
import dev.opcua.stack.server.history.HistoryRetention;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import dev.opcua.stack.server.services.history.HistorySettings;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Turns {@code opcua.server.history.*} into the stack's history settings, refusing invalid values by name. */
final class OpcUaHistoryPropertiesMapper {

    static final String PREFIX = "opcua.server.history";
    private static final PropertyChecks CHECKS = new PropertyChecks(PREFIX, InvalidOpcUaServerPropertyException::new);

    private final OpcUaHistoryProperties properties;

    OpcUaHistoryPropertiesMapper(OpcUaHistoryProperties properties) {
        this.properties = properties;
    }

    /** The store {@code store} names: the embedded one in {@code directory}, or one in memory. */
    HistoryStore store() {
        if (properties.getStore() == OpcUaHistoryProperties.StoreType.MEMORY) {
            return new InMemoryHistoryStore();
        }
        if (properties.getStore() == OpcUaHistoryProperties.StoreType.JDBC) {
            // OpcUaHistoryJdbcAutoConfiguration makes the store where there is a DataSource bean
            throw CHECKS.invalid("store", "jdbc", "the application defines no DataSource bean",
                    "jdbc with a DataSource bean (spring.datasource.* or the application's own), embedded or memory");
        }
        if (properties.getDirectory() == null || properties.getDirectory().toString().isBlank()) {
            throw CHECKS.invalid("directory", properties.getDirectory(), "it is not set",
                    "a directory for the embedded store, such as data/history");
        }
        SyncPolicy sync = properties.getSync() == OpcUaHistoryProperties.Sync.OPERATING_SYSTEM
                ? SyncPolicy.OPERATING_SYSTEM : SyncPolicy.EVERY_COMMIT;
        try {
            return EmbeddedHistoryStore.open(properties.getDirectory(), sync);
        } catch (RuntimeException e) {
            throw CHECKS.invalid("directory", properties.getDirectory(),
                    "the embedded history store cannot be opened there: " + e.getMessage(),
                    "a writable directory not used by another process", e);
        }
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
