package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.spring.boot.autoconfigure.diagnostics.StackErrors;
import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;

/** The table from the stack's settings to the {@code opcua.server.*} keys, and the reports it gives. */
class OpcUaServerSettingKeysTest {

    @Test
    void every_setting_of_the_table_maps_to_a_property_of_the_server() {
        BeanWrapper properties = PropertyAccessorFactory.forBeanPropertyAccess(new OpcUaServerProperties());
        assertThat(OpcUaServerSettingKeys.KEYS).allSatisfy((setting, key) -> {
            assertThat(setting).as("stack setting").matches("[a-zA-Z]+\\.[a-zA-Z]+");
            assertThat(properties.isReadableProperty(StackErrors.propertyPath(key))).as(key).isTrue();
        });
    }

    @Test
    void a_setting_the_stack_refuses_is_reported_against_its_key_with_the_value_as_bound() {
        OpcUaServerProperties properties = new OpcUaServerProperties();
        properties.getSubscriptions().setMaxLifetimeCount(10);

        assertThatThrownBy(() -> new OpcUaServerPropertiesMapper(properties).subscriptionSettings())
                .isInstanceOfSatisfying(InvalidOpcUaServerPropertyException.class, e -> {
                    assertThat(e.getKey()).isEqualTo("opcua.server.subscriptions.max-lifetime-count");
                    assertThat(e.getValue()).isEqualTo(10);
                    assertThat(e.getReason()).isEqualTo("it must be at least three times maxKeepAliveCount (10000)");
                    assertThat(e.getCause()).isInstanceOfSatisfying(InvalidSettingException.class,
                            cause -> assertThat(cause.setting()).isEqualTo("subscriptionSettings.maxLifetimeCount"));
                });
    }

    @Test
    void a_setting_whose_stack_value_differs_is_reported_with_the_value_the_user_wrote() {
        OpcUaServerProperties properties = new OpcUaServerProperties();
        properties.getSubscriptions().setMinSamplingInterval(Duration.ofSeconds(2));
        properties.getSubscriptions().setMaxSamplingInterval(Duration.ofSeconds(1));

        assertThatThrownBy(() -> new OpcUaServerPropertiesMapper(properties).monitoredItemSettings())
                .isInstanceOfSatisfying(InvalidOpcUaServerPropertyException.class, e -> {
                    assertThat(e.getKey()).isEqualTo("opcua.server.subscriptions.max-sampling-interval");
                    assertThat(e.getValue()).isEqualTo(Duration.ofSeconds(1));
                });
    }

    @Test
    void an_error_of_the_stack_that_names_no_setting_is_reported_without_a_key() {
        OpcUaServerProperties properties = new OpcUaServerProperties();
        properties.getTransport().setHelloTimeout(null);

        assertThatThrownBy(() -> new OpcUaServerPropertiesMapper(properties).transportQuotas())
                .isInstanceOfSatisfying(InvalidOpcUaServerPropertyException.class, e -> {
                    assertThat(e.getKey()).isNull();
                    assertThat(e.getReason()).contains("helloTimeout must not be null");
                    assertThat(e.getCause()).isInstanceOf(NullPointerException.class);
                });
    }

    @Test
    void a_reverse_connect_client_that_is_not_an_opc_tcp_url_is_reported_against_its_key() {
        OpcUaServerProperties properties = new OpcUaServerProperties();
        properties.getReverseConnect().setClients(List.of("http://mes-host:8080"));

        assertThatThrownBy(() -> new OpcUaServerPropertiesMapper(properties).applyTo(OpcUaServer.builder(), null))
                .isInstanceOfSatisfying(InvalidOpcUaServerPropertyException.class, e -> {
                    assertThat(e.getKey()).isEqualTo("opcua.server.reverse-connect.clients");
                    assertThat(e.getValue()).isEqualTo("http://mes-host:8080");
                    assertThat(e.getReason()).contains("opc.tcp URL with the port the client listens on");
                });
    }
}
