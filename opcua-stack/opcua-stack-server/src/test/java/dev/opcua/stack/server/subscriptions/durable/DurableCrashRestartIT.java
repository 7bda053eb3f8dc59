package dev.opcua.stack.server.subscriptions.durable;

import org.junit.jupiter.api.Test;

/** {@link DurableRestartScenario#runAfterCrash} with the in-memory store handed from the crashed server to the next. */
class DurableCrashRestartIT {

    @Test
    void a_durable_subscription_restored_after_a_crash_reuses_no_sequence_number_and_delivers_every_value_once()
            throws Exception {
        DurableRestartScenario.runAfterCrash(DurableRestartScenario.inMemory());
    }
}
