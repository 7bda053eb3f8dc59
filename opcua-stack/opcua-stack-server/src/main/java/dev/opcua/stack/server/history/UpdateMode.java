package dev.opcua.stack.server.history;

import dev.opcua.stack.core.types.enumerated.HistoryUpdateType;

/** How {@link HistoryStore#update} treats a value whose time the node already has, or lacks (Part 11, 6.9.2). */
public enum UpdateMode {
    /** Adds values at new times; a time that holds a value is refused ({@link UpdateOutcome#ENTRY_EXISTS}). */
    INSERT,
    /** Replaces values at existing times; a time without a value is refused ({@link UpdateOutcome#NO_ENTRY_EXISTS}). */
    REPLACE,
    /** Inserts or replaces, whichever applies (PerformUpdateType Update). */
    UPSERT;

    /**
     * What a store keeps of a value this mode wrote, for read-modified (Part 11, 6.5.3.3): an inserted value as
     * Insert, a replaced one as Replace, or as Update when the client asked for PerformUpdateType Update.
     */
    public HistoryUpdateType modificationType(boolean replaced) {
        if (!replaced) {
            return HistoryUpdateType.Insert;
        }
        return this == UPSERT ? HistoryUpdateType.Update : HistoryUpdateType.Replace;
    }
}
