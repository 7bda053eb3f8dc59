package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.types.builtin.StatusCode;
import java.util.List;

/**
 * The outcome of {@link ClientSubscriptions#resume}: the subscription, now this client's, and what did not match
 * between the token and the server's items.
 *
 * @param subscription the resumed subscription, in this client's record
 * @param undeclaredHandles client handles of items the server has and the token does not declare (event items,
 *        items another process added): kept in the record with an unknown node ({@code NodeId.NULL}), their
 *        values going to the resume's listener; delete them or keep them, the application decides
 * @param recreatedHandles client handles the token declares and the server no longer had (an item a restored
 *        server skipped): created again with CreateMonitoredItems, see each item's status
 * @param getMonitoredItemsStatus the status of the server's GetMonitoredItems (Part 5, 9.1); when bad (a server
 *        without the method) the items of the token are assumed to be there, without their MonitoredItemIds, so
 *        they receive values but cannot be modified or deleted
 */
public record ResumedSubscription(ClientSubscription subscription, List<Integer> undeclaredHandles,
        List<Integer> recreatedHandles, StatusCode getMonitoredItemsStatus) {

    public ResumedSubscription {
        undeclaredHandles = List.copyOf(undeclaredHandles);
        recreatedHandles = List.copyOf(recreatedHandles);
    }
}
