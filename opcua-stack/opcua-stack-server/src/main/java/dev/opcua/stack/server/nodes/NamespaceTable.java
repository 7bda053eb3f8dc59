package dev.opcua.stack.server.nodes;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server's NamespaceArray (Part 5, 6.3.13 and Part 3, 8.2.2): index 0 is the OPC UA namespace,
 * index 1 the server's own application URI, then the namespaces of the node managers in the order
 * they register. Indexes never change once given.
 */
public final class NamespaceTable {

    /** URI of namespace 0 (Part 6, 5.2.2.9 and Part 3, 8.2.2). */
    public static final String OPC_UA_NAMESPACE = "http://opcfoundation.org/UA/";

    private final List<String> uris = new ArrayList<>();
    private final ConcurrentHashMap<String, Integer> indexes = new ConcurrentHashMap<>();

    public NamespaceTable(String applicationUri) {
        register(OPC_UA_NAMESPACE);
        register(applicationUri);
    }

    /** The index of a URI, registering it when new. */
    public synchronized int register(String uri) {
        Integer existing = indexes.get(uri);
        if (existing != null) {
            return existing;
        }
        if (uris.size() > 0xFFFF) {
            throw new IllegalStateException("the namespace table is full (65536 namespaces)");
        }
        int index = uris.size();
        uris.add(uri);
        indexes.put(uri, index);
        return index;
    }

    /** The index of a registered URI, or -1. */
    public int indexOf(String uri) {
        Integer index = indexes.get(uri);
        return index == null ? -1 : index;
    }

    /** The URI at an index, or null. */
    public synchronized String uri(int index) {
        return index >= 0 && index < uris.size() ? uris.get(index) : null;
    }

    /** The NamespaceArray value. */
    public synchronized String[] toArray() {
        return uris.toArray(new String[0]);
    }
}
