package dev.opcua.stack.history.embedded;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.history.events.EventBytes;
import dev.opcua.stack.server.history.events.EventKey;
import dev.opcua.stack.server.history.events.EventPage;
import dev.opcua.stack.server.history.events.EventQuery;
import dev.opcua.stack.server.history.events.EventSample;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * The event history (Part 11, 6.5.2 ReadEventDetails; 6.9.7 DeleteEventDetails) of an {@link EmbeddedHistoryStore}:
 * per notifier a map {@code events:<notifier>} from the {@link EventKey#sortable() sortable key} (Time, EventId) to
 * the event's {@link EventBytes}, and an index {@code eventids:<notifier>} from the EventId in hex to that key, for
 * deletes by EventId. Changes run on the store's writer thread, inside its commits; reads on the caller's thread.
 */
final class EventMaps {

    private static final String EVENTS_PREFIX = "events:";
    private static final String EVENT_IDS_PREFIX = "eventids:";
    private static final HexFormat HEX = HexFormat.of();

    private final MVStore store;
    private final Map<NodeId, MVMap<String, byte[]>> events = new ConcurrentHashMap<>();
    private final Map<NodeId, MVMap<String, String>> eventIds = new ConcurrentHashMap<>();
    private final EventBytes eventBytes = new EventBytes(CodecRegistry.standard());

    EventMaps(MVStore store) {
        this.store = store;
    }

    /** Opens the maps of a notifier that {@code mapName} names, when it names an events map; whether it did. */
    boolean openExisting(String mapName) {
        if (!mapName.startsWith(EVENTS_PREFIX)) {
            return false;
        }
        NodeId notifier = NodeId.parse(mapName.substring(EVENTS_PREFIX.length()));
        events.put(notifier, store.openMap(mapName));
        eventIds.put(notifier, store.openMap(EVENT_IDS_PREFIX + notifier));
        return true;
    }

    private MVMap<String, byte[]> eventsOf(NodeId notifier) {
        eventIds.computeIfAbsent(notifier, id -> store.openMap(EVENT_IDS_PREFIX + id));
        return events.computeIfAbsent(notifier, id -> store.openMap(EVENTS_PREFIX + id));
    }

    /** Puts the events; an EventId kept already moves to the event's (new) key. Writer thread. */
    void append(List<EventSample> samples) {
        for (EventSample sample : samples) {
            MVMap<String, byte[]> kept = eventsOf(sample.notifier());
            MVMap<String, String> ids = eventIds.get(sample.notifier());
            String key = sample.key().sortable();
            String previous = ids.put(HEX.formatHex(sample.event().eventId().unsafeBytes()), key);
            if (previous != null && !previous.equals(key)) {
                kept.remove(previous);
            }
            kept.put(key, eventBytes.encode(sample.event()));
        }
    }

    /** A page of a notifier's events in the query's range, against the last committed or applied state. */
    EventPage read(EventQuery query) {
        MVMap<String, byte[]> kept = events.get(query.notifier());
        if (kept == null || query.isEmpty()) {
            return EventPage.EMPTY;
        }
        // forward: from the first key at the start; backward: from below the first key after the start
        String from = query.backward()
                ? (query.start() == Long.MAX_VALUE ? null : EventKey.sortableTicks(query.start() + 1))
                : EventKey.sortableTicks(query.start());
        List<UaEvent> found = new ArrayList<>();
        boolean more = false;
        Cursor<String, byte[]> cursor = kept.cursor(from, null, query.backward());
        while (cursor.hasNext()) {
            EventKey key = EventKey.parseSortable(cursor.next());
            if (query.isPastEnd(key)) {
                break;
            }
            if (!query.contains(key)) {
                continue;
            }
            if (query.limit() > 0 && found.size() == query.limit()) {
                more = true;
                break;
            }
            found.add(eventBytes.decode(cursor.getValue()));
        }
        return new EventPage(found, more);
    }

    /** Deletes a notifier's events by EventId; per id whether it was kept (a null id never is). Writer thread. */
    List<Boolean> delete(NodeId notifier, List<ByteString> ids) {
        MVMap<String, byte[]> kept = events.get(notifier);
        MVMap<String, String> keys = eventIds.get(notifier);
        List<Boolean> deleted = new ArrayList<>(ids.size());
        for (ByteString id : ids) {
            String key = kept == null || id.isNull() ? null : keys.remove(HEX.formatHex(id.unsafeBytes()));
            deleted.add(key != null && kept.remove(key) != null);
        }
        return deleted;
    }

    /** Deletes the events of every notifier before {@code oldest}; how many. Writer thread. */
    long trim(long oldest) {
        long deleted = 0;
        String end = EventKey.sortableTicks(oldest);
        for (Map.Entry<NodeId, MVMap<String, byte[]>> entry : events.entrySet()) {
            MVMap<String, byte[]> kept = entry.getValue();
            MVMap<String, String> ids = eventIds.get(entry.getKey());
            List<String> doomed = new ArrayList<>();
            Iterator<String> keys = kept.keyIterator(null);
            while (keys.hasNext()) {
                String key = keys.next();
                if (key.compareTo(end) >= 0) {
                    break;
                }
                doomed.add(key);
            }
            for (String key : doomed) {
                kept.remove(key);
                ids.remove(key.substring(16));
            }
            deleted += doomed.size();
        }
        return deleted;
    }
}
