package dev.opcua.stack.server.history;

import dev.opcua.stack.core.types.builtin.DataValue;
import java.util.List;
import java.util.Optional;

/**
 * What a {@link HistoryQuery} found: its values in the query's order, and whether the range holds
 * more values beyond the limit.
 *
 * @param values the values, at most the query's limit
 * @param more whether values beyond the last one remain in the range
 */
public record HistoryPage(List<DataValue> values, boolean more) {

    public static final HistoryPage EMPTY = new HistoryPage(List.of(), false);

    public HistoryPage {
        values = List.copyOf(values);
    }

    /** The first value, if any. */
    public Optional<DataValue> first() {
        return values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** The time of the last value, to resume after ({@link HistoryQuery#after}). */
    public long lastTicks() {
        if (values.isEmpty()) {
            throw new IllegalStateException("the page is empty");
        }
        return HistoryTime.ticksOf(values.get(values.size() - 1));
    }
}
