package dev.opcua.spring.boot.autoconfigure.server.history;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Historical Access of the server ({@code opcua.server.history.*}): where values of historizing variables
 * are kept, which are recorded, how long they are kept, and the limits of HistoryRead / HistoryUpdate.
 */
@ConfigurationProperties("opcua.server.history")
public class OpcUaHistoryProperties {

    /** The kinds of history store the starter can create; a HistoryStore bean of the application wins over all. */
    public enum StoreType {
        /** One crash-safe file under {@code directory}, kept across restarts (module opcua-stack-history-embedded). */
        EMBEDDED,
        /** In memory, lost at a restart (tests, demos). */
        MEMORY,
        /**
         * PostgreSQL through the application's DataSource bean ({@code opcua.server.history.jdbc.*}; module
         * opcua-stack-history-jdbc).
         */
        JDBC
    }

    /** When the embedded store forces its file to the disk. */
    public enum Sync {
        /** After every commit: acknowledged values survive a power loss. */
        EVERY_COMMIT,
        /** When the operating system writes back: acknowledged values survive a killed process, not a power loss. */
        OPERATING_SYSTEM
    }

    /** Whether the server offers HistoryRead and HistoryUpdate and records historizing variables. */
    private boolean enabled;

    /**
     * The store the starter creates when the application defines no HistoryStore bean: embedded needs the module
     * opcua-stack-history-embedded (the starter brings it), jdbc the module opcua-stack-history-jdbc.
     */
    private StoreType store = StoreType.EMBEDDED;

    /** Directory of the embedded store (created when missing); its file is history.mv.db. */
    private Path directory = Path.of("data", "history");

    /** When the embedded store forces its file to the disk. */
    private Sync sync = Sync.EVERY_COMMIT;

    /**
     * Variables to record besides those declared historizing ({@code @UaVariable(historizing = true)}, the
     * builder's {@code historizing()}): node ids as {@code nsu=<namespace URI>;s=<id>} or {@code ns=<index>;i=<id>}.
     */
    private List<String> nodes = new ArrayList<>();

    /** Whether the listed {@code nodes} also accept HistoryUpdate (AccessLevel HistoryWrite). */
    private boolean nodesWritable;

    /**
     * Objects whose events are recorded (event history, read with ReadEventDetails): each keeps the events reported
     * on it or on a notifier below it, with all their fields; {@code i=2253} (the Server object) records every
     * event of the server. Node ids as for {@code nodes}.
     */
    private List<String> eventNotifiers = new ArrayList<>();

    /** Whether the {@code event-notifiers} also accept HistoryUpdate deletes of events (EventNotifier HistoryWrite). */
    private boolean eventNotifiersWritable;

    /** How often recorded variables are read to record values that changed. */
    private Duration samplingInterval = Duration.ofSeconds(1);

    /** Values older than this are deleted; unset keeps them all. */
    private Duration maxAge;

    /** The most the store may hold; the oldest values go first; unset for no limit. */
    private DataSize maxSize;

    /** How often the retention (max-age, max-size) is applied. */
    private Duration retentionCheckInterval = Duration.ofMinutes(1);

    /** HistoryRead continuation points one session may hold; a new one frees the oldest (MaxHistoryContinuationPoints). */
    private int maxContinuationPoints = 10;

    /** The most values one node returns per HistoryRead response; the rest follows by continuation point (MaxReturnDataValues). */
    private int maxReturnDataValues = 10_000;

    /** Nodes one HistoryRead may read (MaxNodesPerHistoryReadData); 0 for no limit. */
    private int maxNodesPerRead;

    /** Details one HistoryUpdate may carry (MaxNodesPerHistoryUpdateData); 0 for no limit. */
    private int maxNodesPerUpdate;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public StoreType getStore() {
        return store;
    }

    public void setStore(StoreType store) {
        this.store = store;
    }

    public Path getDirectory() {
        return directory;
    }

    public void setDirectory(Path directory) {
        this.directory = directory;
    }

    public Sync getSync() {
        return sync;
    }

    public void setSync(Sync sync) {
        this.sync = sync;
    }

    public List<String> getNodes() {
        return nodes;
    }

    public void setNodes(List<String> nodes) {
        this.nodes = nodes;
    }

    public boolean isNodesWritable() {
        return nodesWritable;
    }

    public void setNodesWritable(boolean nodesWritable) {
        this.nodesWritable = nodesWritable;
    }

    public List<String> getEventNotifiers() {
        return eventNotifiers;
    }

    public void setEventNotifiers(List<String> eventNotifiers) {
        this.eventNotifiers = eventNotifiers;
    }

    public boolean isEventNotifiersWritable() {
        return eventNotifiersWritable;
    }

    public void setEventNotifiersWritable(boolean eventNotifiersWritable) {
        this.eventNotifiersWritable = eventNotifiersWritable;
    }

    public Duration getSamplingInterval() {
        return samplingInterval;
    }

    public void setSamplingInterval(Duration samplingInterval) {
        this.samplingInterval = samplingInterval;
    }

    public Duration getMaxAge() {
        return maxAge;
    }

    public void setMaxAge(Duration maxAge) {
        this.maxAge = maxAge;
    }

    public DataSize getMaxSize() {
        return maxSize;
    }

    public void setMaxSize(DataSize maxSize) {
        this.maxSize = maxSize;
    }

    public Duration getRetentionCheckInterval() {
        return retentionCheckInterval;
    }

    public void setRetentionCheckInterval(Duration retentionCheckInterval) {
        this.retentionCheckInterval = retentionCheckInterval;
    }

    public int getMaxContinuationPoints() {
        return maxContinuationPoints;
    }

    public void setMaxContinuationPoints(int maxContinuationPoints) {
        this.maxContinuationPoints = maxContinuationPoints;
    }

    public int getMaxReturnDataValues() {
        return maxReturnDataValues;
    }

    public void setMaxReturnDataValues(int maxReturnDataValues) {
        this.maxReturnDataValues = maxReturnDataValues;
    }

    public int getMaxNodesPerRead() {
        return maxNodesPerRead;
    }

    public void setMaxNodesPerRead(int maxNodesPerRead) {
        this.maxNodesPerRead = maxNodesPerRead;
    }

    public int getMaxNodesPerUpdate() {
        return maxNodesPerUpdate;
    }

    public void setMaxNodesPerUpdate(int maxNodesPerUpdate) {
        this.maxNodesPerUpdate = maxNodesPerUpdate;
    }
}
