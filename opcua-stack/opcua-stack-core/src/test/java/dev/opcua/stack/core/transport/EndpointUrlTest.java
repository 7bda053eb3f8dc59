package dev.opcua.stack.core.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Endpoint URLs taken apart (Part 6, 7.2). */
class EndpointUrlTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "opc.tcp://plant.acme.local:4841/line1 | opc.tcp | plant.acme.local  | 4841  | /line1",
        "opc.tcp://localhost                   | opc.tcp | localhost         | -1    | ''",
        "opc.tcp://127.0.0.1/                  | opc.tcp | 127.0.0.1         | -1    | /",
        "OPC.TCP://Host:1/a/b                  | OPC.TCP | Host              | 1     | /a/b",
        "opc.tcp://[::1]:4840/x                | opc.tcp | [::1]             | 4840  | /x",
        "opc.tcp://[fe80::1%25eth0]:4840/      | opc.tcp | [fe80::1%25eth0]  | 4840  | /",
        "opc.tcp://plant_gw.local:65535/line/1 | opc.tcp | plant_gw.local    | 65535 | /line/1",
        "opc.tcp://host:0                      | opc.tcp | host              | 0     | ''",
    })
    void parses_scheme_host_port_and_path(String url, String scheme, String host, int port, String path) {
        assertThat(EndpointUrl.parse(url)).isEqualTo(new EndpointUrl(scheme, host, port, path));
    }

    @Test
    void gives_the_socket_host_and_the_default_port() {
        EndpointUrl url = EndpointUrl.parse("opc.tcp://[fe80::1]/x");
        assertThat(url.socketHost()).isEqualTo("fe80::1");
        assertThat(url.portOrDefault()).isEqualTo(4840);
        assertThat(url.isOpcTcp()).isTrue();
        assertThat(EndpointUrl.parse("http://h").isOpcTcp()).isFalse();
    }

    @Test
    void rebuilds_the_url_with_another_host() {
        assertThat(EndpointUrl.parse("opc.tcp://a:4840/x").withHost("b").toString()).isEqualTo("opc.tcp://b:4840/x");
        assertThat(EndpointUrl.parse("opc.tcp://a/x").withHost("[::1]").toString()).isEqualTo("opc.tcp://[::1]/x");
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"opc.tcp://", "opc.tcp://:4840/x", "opc.tcp://host:65536", "opc.tcp://host:abc",
        "opc.tcp://host:", "opc.tcp://[::1", "opc.tcp://[::1]x", "host:4840", "://host"})
    void refuses_malformed_urls_with_BadTcpEndpointUrlInvalid(String url) {
        assertThatThrownBy(() -> EndpointUrl.parse(url))
                .isInstanceOf(UaException.class)
                .hasMessageContaining("invalid endpoint URL")
                .satisfies(e -> assertThat(((UaException) e).statusCode().value())
                        .isEqualTo(StatusCodes.BadTcpEndpointUrlInvalid));
    }
}
