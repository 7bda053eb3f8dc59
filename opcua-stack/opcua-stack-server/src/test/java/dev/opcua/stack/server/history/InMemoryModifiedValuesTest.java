package dev.opcua.stack.server.history;

class InMemoryModifiedValuesTest extends ModifiedValuesContract {

    @Override
    protected HistoryStore open() {
        return new InMemoryHistoryStore();
    }
}
