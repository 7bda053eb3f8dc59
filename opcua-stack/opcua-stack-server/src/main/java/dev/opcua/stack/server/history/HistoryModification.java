package dev.opcua.stack.server.history;

import dev.opcua.stack.core.types.builtin.DateTime;
import java.util.Objects;

/**
 * Who changed history and when, kept with each value a HistoryUpdate replaced, inserted or deleted (Part 11,
 * 6.6.3 ModificationInfo: modificationTime and userName).
 *
 * @param time when the change was made
 * @param userName the user's name, null when the session has none (anonymous, or the server itself)
 */
public record HistoryModification(DateTime time, String userName) {

    public HistoryModification {
        Objects.requireNonNull(time, "time");
    }

    /** A change made now by the user named. */
    public static HistoryModification now(String userName) {
        return new HistoryModification(DateTime.now(), userName);
    }
}
