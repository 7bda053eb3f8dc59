package dev.opcua.stack.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each settings type of the server and the server's builder refuse a value naming the setting it breaks. */
class ServerSettingsRulesTest {

    private static final Duration S1 = Duration.ofSeconds(1);
    private static final Duration S2 = Duration.ofSeconds(2);

    static Stream<Arguments> refusals() {
        return Stream.of(
                refused(() -> new SessionSettings(0, S1, S2, 1), "sessionSettings.maxSessions", 0),
                refused(() -> new SessionSettings(1, S2, S1, 1), "sessionSettings.maxSessionTimeout", S1),
                refused(() -> new SessionSettings(1, S1, S2, -1),
                        "sessionSettings.maxFailedAuthenticationAttempts", -1),
                refused(() -> new SessionSettings(1, S1, S2, 1, Duration.ZERO),
                        "sessionSettings.failedAuthenticationLockout", Duration.ZERO),
                refused(() -> pool(-1, 10, S1), "requestPoolSettings.minThreads", -1),
                refused(() -> pool(10, 5, S1), "requestPoolSettings.maxThreads", 5),
                refused(() -> pool(1, 5, Duration.ZERO), "requestPoolSettings.workerKeepAlive", Duration.ZERO),
                refused(() -> RequestPoolSettings.DEFAULT.withMaxRequestsPerRead(-1),
                        "requestPoolSettings.maxRequestsPerRead", -1),
                refused(() -> new OperationLimits(0, 0, 0, 0, -3, 0, 0),
                        "operationLimits.maxNodesPerTranslateBrowsePathsToNodeIds", -3),
                refused(() -> new MonitoredItemSettings(100, 50, 10),
                        "monitoredItemSettings.maxSamplingInterval", 50.0),
                refused(() -> new MonitoredItemSettings(10, 100, 10, 5, 4, 10),
                        "monitoredItemSettings.defaultEventQueueSize", 4),
                refused(() -> SubscriptionSettings.builder().maxKeepAliveCount(10).maxLifetimeCount(29).build(),
                        "subscriptionSettings.maxLifetimeCount", 29),
                refused(() -> SubscriptionSettings.builder().maxMonitoredItems(-1).build(),
                        "subscriptionSettings.maxMonitoredItems", -1),
                refused(() -> OpcUaServer.builder().port(70_000), "opcUaServer.port", 70_000),
                refused(() -> OpcUaServer.builder().browseLimits(0, 0), "opcUaServer.maxBrowseContinuationPoints", 0),
                refused(() -> OpcUaServer.builder().certificateParameters(2500, Duration.ofDays(1)),
                        "opcUaServer.certificateKeySize", 2500),
                refused(() -> OpcUaServer.builder().security(List.of()), "opcUaServer.security", List.of()));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("refusals")
    void a_value_out_of_range_is_refused_naming_its_setting(ThrowingCallable construction, String setting,
            Object value) {
        assertThatThrownBy(construction).isInstanceOfSatisfying(InvalidSettingException.class, e -> {
            assertThat(e.setting()).isEqualTo(setting);
            assertThat(e.value()).isEqualTo(value);
            assertThat(e.getMessage()).startsWith(setting + " must").endsWith(", was " + value);
        });
    }

    private static Arguments refused(ThrowingCallable construction, String setting, Object value) {
        return Arguments.of(construction, setting, value);
    }

    private static RequestPoolSettings pool(int minThreads, int maxThreads, Duration keepAlive) {
        return new RequestPoolSettings(minThreads, maxThreads, 10, 0, keepAlive, S1, false, S1);
    }
}
