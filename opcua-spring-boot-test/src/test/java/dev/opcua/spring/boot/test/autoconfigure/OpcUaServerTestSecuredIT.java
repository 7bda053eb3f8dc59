package dev.opcua.spring.boot.test.autoconfigure;

import static dev.opcua.spring.boot.test.assertj.OpcUaAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.test.client.OpcUaTestClient;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * {@link OpcUaServerTest} with a user over SignAndEncrypt: the test support gives the server a temporary PKI that
 * trusts the test client's certificate, and the client trusts the server's.
 */
@OpcUaServerTest(classes = TestLine.class, securityMode = MessageSecurityMode.SignAndEncrypt,
        username = "operator", password = "line1-operator",
        properties = {"opcua.server.identity.users[0].username=operator",
            "opcua.server.identity.users[0].password=line1-operator", "opcua.server.identity.users[0].roles=Operator"})
class OpcUaServerTestSecuredIT {

    @Autowired
    OpcUaTestClient opcua;

    @Test
    void the_operator_writes_over_a_sign_and_encrypt_channel() {
        assertThat(opcua.client().endpoint().securityMode()).isEqualTo(MessageSecurityMode.SignAndEncrypt);
        assertThat(opcua.writeValue(TestLine.SPEED, 250.0)).isGood();
        assertThat(opcua.readValue(TestLine.SPEED)).isGood().hasValue(250.0);
    }
}
