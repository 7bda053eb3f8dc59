package dev.opcua.stack.server.subscriptions.durable;

import org.junit.jupiter.api.Test;

/** {@link DurableRestartScenario#runAfterCrash} with the in-memory store handed from the crashed server to the next. */
class DurableCrashRestartIT {

    @Test
    void a_durable_subscription_restored_after_a_crash_reuses_no_sequence_number_and_delivers_every_value_once()
            throws Exception {
        InMemoryDurableSubscriptionStore store = new InMemoryDurableSubscriptionStore(); // bytes, as a file keeps them
        DurableRestartScenario.runAfterCrash(new DurableRestartScenario.Storage() {
            @Override
            public DurableSubscriptionStore open() {
                return store;
            }

            @Override
            public int stored() {
                return store.size();
            }
        });
    }
}
