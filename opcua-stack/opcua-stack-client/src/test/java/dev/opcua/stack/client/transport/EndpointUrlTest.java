package dev.opcua.stack.client.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class EndpointUrlTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "opc.tcp://plant.acme.local:4841/line1 | plant.acme.local | 4841 | /line1",
        "opc.tcp://localhost                   | localhost        | 4840 | ''",
        "opc.tcp://127.0.0.1/                  | 127.0.0.1        | 4840 | /",
        "OPC.TCP://Host:1/a/b                  | Host             | 1    | /a/b",
        "opc.tcp://[::1]:4840/x                | ::1              | 4840 | /x",
        "opc.tcp://[fe80::1]                   | fe80::1          | 4840 | ''",
        "opc.tcp://my_host:65535               | my_host          | 65535| ''",
    })
    void parsesHostPortAndPath(String url, String host, int port, String path) {
        assertThat(EndpointUrl.parse(url)).isEqualTo(new EndpointUrl(host, port, path));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"http://host:4840", "opc.https://host", "opc.tcp://", "opc.tcp://:4840/x",
        "opc.tcp://host:0", "opc.tcp://host:65536", "opc.tcp://host:abc", "opc.tcp://host:", "opc.tcp://[::1",
        "opc.tcp://[::1]x", "host:4840"})
    void rejectsOtherSchemesMissingHostsAndBadPortsWithBadTcpEndpointUrlInvalid(String url) {
        assertThatThrownBy(() -> EndpointUrl.parse(url))
                .isInstanceOf(UaException.class)
                .hasMessageContaining("invalid endpoint URL")
                .satisfies(e -> assertThat(((UaException) e).statusCode().value())
                        .isEqualTo(StatusCodes.BadTcpEndpointUrlInvalid));
    }
}
