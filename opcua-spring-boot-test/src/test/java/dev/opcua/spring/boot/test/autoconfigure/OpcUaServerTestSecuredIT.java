package dev.opcua.spring.boot.test.autoconfigure;

import static dev.opcua.spring.boot.test.assertj.OpcUaAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerProperties;
import dev.opcua.spring.boot.test.client.OpcUaTestClient;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * {@link OpcUaServerTest} with a user over SignAndEncrypt: the test support gives the server a temporary PKI that
 * trusts the test client's certificate, and the client trusts the server's. The test's own properties win over those
 * the annotation sets.
 */
@OpcUaServerTest(classes = TestLine.class, securityMode = MessageSecurityMode.SignAndEncrypt,
        username = "operator", password = "line1-operator",
        properties = {"opcua.server.identity.users[0].username=operator",
            "opcua.server.identity.users[0].password=line1-operator", "opcua.server.identity.users[0].roles=Operator",
            "opcua.server.shutdown-delay=10ms"})
class OpcUaServerTestSecuredIT {

    @Autowired
    OpcUaTestClient opcua;

    @Autowired
    OpcUaServerProperties serverProperties;

    @Test
    void the_operator_writes_over_a_sign_and_encrypt_channel() {
        assertThat(opcua.client().endpoint().securityMode()).isEqualTo(MessageSecurityMode.SignAndEncrypt);
        assertThat(opcua.writeValue(TestLine.SPEED, 250.0)).isGood();
        assertThat(opcua.readValue(TestLine.SPEED)).isGood().hasValue(250.0);
    }

    @Test
    void a_property_of_the_test_wins_over_the_shutdown_delay_the_annotation_sets() {
        assertThat(serverProperties.getShutdownDelay()).isEqualTo(Duration.ofMillis(10));
        assertThat(serverProperties.getPort()).isZero();
    }
}
