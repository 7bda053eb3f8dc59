package dev.opcua.stack.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.subscriptions.SubscriptionSettings;
import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The client's configuration refuses a value naming the setting it breaks. */
class OpcUaClientConfigRulesTest {

    private static final String URL = "opc.tcp://localhost:4840/";

    static Stream<Arguments> refusals() {
        return Stream.of(
                refused(() -> OpcUaClientConfig.builder("http://localhost:80/").build(),
                        "opcUaClientConfig.endpointUrl", "http://localhost:80/"),
                refused(() -> OpcUaClientConfig.builder(URL).requestTimeout(Duration.ZERO).build(),
                        "opcUaClientConfig.requestTimeout", Duration.ZERO),
                refused(() -> OpcUaClientConfig.builder(URL)
                                .reconnectDelays(Duration.ofSeconds(5), Duration.ofSeconds(1)).build(),
                        "opcUaClientConfig.reconnectMaxDelay", Duration.ofSeconds(1)),
                refused(() -> OpcUaClientConfig.builder(URL).maxWaitingRequests(-1).build(),
                        "opcUaClientConfig.maxWaitingRequests", -1),
                refused(() -> OpcUaClientConfig.builder(URL)
                                .security(SecurityPolicy.None, MessageSecurityMode.Sign).build(),
                        "opcUaClientConfig.securityMode", MessageSecurityMode.Sign),
                refused(() -> OpcUaClientConfig.builder(URL).allowedSecurityPolicies(Set.of()),
                        "opcUaClientConfig.allowedSecurityPolicies", Set.of()),
                refused(() -> SubscriptionSettings.builder().maxPublishRequests(0),
                        "clientSubscriptionSettings.maxPublishRequests", 0));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("refusals")
    void a_value_out_of_range_is_refused_naming_its_setting(ThrowingCallable construction, String setting,
            Object value) {
        assertThatThrownBy(construction).isInstanceOfSatisfying(InvalidSettingException.class, e -> {
            assertThat(e.setting()).isEqualTo(setting);
            assertThat(e.value()).isEqualTo(value);
            assertThat(e.getMessage()).startsWith(setting + " ");
        });
    }

    private static Arguments refused(ThrowingCallable construction, String setting, Object value) {
        return Arguments.of(construction, setting, value);
    }
}
