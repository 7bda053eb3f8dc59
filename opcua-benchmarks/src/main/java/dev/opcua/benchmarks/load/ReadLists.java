package dev.opcua.benchmarks.load;

import java.util.List;
import java.util.function.IntFunction;

/**
 * The nodesToRead lists of one session's Reads, each built once, as a client that polls a fixed set
 * of variables keeps its request list: a request of {@code count} values from variable {@code first}
 * (wrapping over the variables) reuses the list of the last request of that size that started there. Both clients
 * get their lists from here, so that the harness's own share of a Read is the same for each. Lists
 * are immutable; two request chains that build the same list at once both keep a correct one.
 *
 * @param <T> the client's ReadValueId type
 */
final class ReadLists<T> {

    private final IntFunction<T> item;
    private final int variables;
    private final List<T>[] byFirst;

    /** @param item the ReadValueId of variable {@code i} */
    @SuppressWarnings("unchecked")
    ReadLists(int variables, IntFunction<T> item) {
        this.item = item;
        this.variables = variables;
        this.byFirst = new List[variables];
    }

    /** The list of {@code count} variables from {@code first}, wrapping. */
    List<T> get(int first, int count) {
        List<T> list = byFirst[first];
        if (list == null || list.size() != count) {
            Object[] items = new Object[count];
            for (int i = 0, n = first; i < count; i++, n = n + 1 == variables ? 0 : n + 1) {
                items[i] = item.apply(n);
            }
            @SuppressWarnings("unchecked")
            List<T> built = (List<T>) List.of(items);
            list = built;
            byFirst[first] = list;
        }
        return list;
    }
}
