package dev.opcua.stack.server.history.events;

import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.InMemoryHistoryStore;

class InMemoryEventHistoryTest extends EventHistoryStoreContract {

    @Override
    protected HistoryStore open() {
        return new InMemoryHistoryStore();
    }
}
