package dev.opcua.stack.server.subscriptions.durable;

import org.junit.jupiter.api.Test;

/** {@link DurableRestartScenario} with the in-memory store handed from the first server to the second. */
class DurableRestartTest {

    @Test
    void a_durable_subscription_outlives_a_server_restart_and_delivers_everything_once_in_order() throws Exception {
        DurableRestartScenario.run(DurableRestartScenario.inMemory());
    }
}
