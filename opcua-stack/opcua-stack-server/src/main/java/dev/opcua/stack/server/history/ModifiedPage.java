package dev.opcua.stack.server.history;

import java.util.List;

/**
 * What {@link HistoryStore#readModified} found: modified values in the query's order, and whether more lie in the
 * range beyond them.
 *
 * @param values the values, at most the query's limit
 * @param more whether values beyond the last one remain in the range
 */
public record ModifiedPage(List<ModifiedValue> values, boolean more) {

    public static final ModifiedPage EMPTY = new ModifiedPage(List.of(), false);

    public ModifiedPage {
        values = List.copyOf(values);
    }
}
