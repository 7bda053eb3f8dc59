package dev.opcua.stack.server.history;

/** What {@link HistoryStore#update} did with one value; the HistoryUpdate service maps it to Part 11's StatusCodes. */
public enum UpdateOutcome {
    /** Stored at a new time (GoodEntryInserted). */
    INSERTED,
    /** Stored over the value at its time (GoodEntryReplaced). */
    REPLACED,
    /** Refused: an insert at a time that holds a value (BadEntryExists). */
    ENTRY_EXISTS,
    /** Refused: a replace at a time without a value (BadNoEntryExists). */
    NO_ENTRY_EXISTS
}
