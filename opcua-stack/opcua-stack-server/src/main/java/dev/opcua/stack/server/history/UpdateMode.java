package dev.opcua.stack.server.history;

/** How {@link HistoryStore#update} treats a value whose time the node already has, or lacks (Part 11, 6.9.2). */
public enum UpdateMode {
    /** Adds values at new times; a time that holds a value is refused ({@link UpdateOutcome#ENTRY_EXISTS}). */
    INSERT,
    /** Replaces values at existing times; a time without a value is refused ({@link UpdateOutcome#NO_ENTRY_EXISTS}). */
    REPLACE,
    /** Inserts or replaces, whichever applies (PerformUpdateType Update). */
    UPSERT
}
