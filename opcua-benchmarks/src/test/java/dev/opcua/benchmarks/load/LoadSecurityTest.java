package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import org.junit.jupiter.api.Test;

class LoadSecurityTest {

    private static final String URL = "opc.tcp://localhost:4841/";
    private static final EndpointSecurity SIGN = new EndpointSecurity(SecurityPolicy.Basic256Sha256,
            MessageSecurityMode.Sign);
    private static final EndpointSecurity ENCRYPT = new EndpointSecurity(SecurityPolicy.Basic256Sha256,
            MessageSecurityMode.SignAndEncrypt);

    @Test
    void picks_the_endpoint_with_the_policy_and_mode() {
        EndpointDescription[] endpoints = {endpoint(EndpointSecurity.NONE), endpoint(SIGN), endpoint(ENCRYPT)};

        assertThat(LoadSecurity.select(endpoints, ENCRYPT, URL)).isSameAs(endpoints[2]);
        assertThat(LoadSecurity.select(endpoints, SIGN, URL)).isSameAs(endpoints[1]);
    }

    @Test
    void a_missing_endpoint_is_reported_with_what_the_server_offers() {
        EndpointDescription[] endpoints = {endpoint(EndpointSecurity.NONE), endpoint(SIGN), endpoint(SIGN)};

        assertThatThrownBy(() -> LoadSecurity.select(endpoints, ENCRYPT, URL))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the server at " + URL + " offers no Basic256Sha256/SignAndEncrypt endpoint; it offers"
                        + " None/None, Basic256Sha256/Sign");
    }

    @Test
    void a_server_with_none_only_gets_a_hint() {
        assertThatThrownBy(() -> LoadSecurity.select(new EndpointDescription[] {endpoint(EndpointSecurity.NONE)},
                SIGN, URL)).hasMessageContaining("it offers None/None (a bench server offers more when started with"
                        + " --pki DIR)");
    }

    @Test
    void none_needs_no_certificate() throws Exception {
        assertThat(LoadSecurity.of(EndpointSecurity.NONE, URL, null)).isSameAs(LoadSecurity.NONE);
        assertThat(LoadSecurity.NONE.channel().certificate()).isNull();
        assertThat(LoadSecurity.NONE.session().applicationUri()).isEqualTo(LoadSecurity.APPLICATION_URI);
    }

    private static EndpointDescription endpoint(EndpointSecurity security) {
        return new EndpointDescription(URL, null, ByteString.NULL, security.mode(), security.policy().uri(), null,
                null, security.securityLevel());
    }
}
