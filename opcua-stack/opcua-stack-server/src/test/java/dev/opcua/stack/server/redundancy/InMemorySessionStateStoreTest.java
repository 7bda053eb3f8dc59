package dev.opcua.stack.server.redundancy;

/** {@link InMemorySessionStateStore} keeps the contract of every session state store. */
class InMemorySessionStateStoreTest extends SessionStateStoreContract {

    @Override
    protected SessionStateStore openStore() {
        return new InMemorySessionStateStore();
    }
}
