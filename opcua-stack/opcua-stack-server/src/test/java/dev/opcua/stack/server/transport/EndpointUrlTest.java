package dev.opcua.stack.server.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Endpoint URLs (Part 6, 7.2) taken apart, and the Hello's EndpointUrl check (Part 6, 7.1.2.3). */
class EndpointUrlTest {

    @Test
    void aUrlIsSplitIntoSchemeHostPortAndPath() {
        assertThat(EndpointUrl.parse("opc.tcp://plant_gw.local:4841/line/1"))
                .isEqualTo(new EndpointUrl("opc.tcp", "plant_gw.local", 4841, "/line/1"));
        assertThat(EndpointUrl.parse("opc.tcp://host")).isEqualTo(new EndpointUrl("opc.tcp", "host", -1, ""));
        assertThat(EndpointUrl.parse("opc.tcp://[fe80::1%25eth0]:4840/"))
                .isEqualTo(new EndpointUrl("opc.tcp", "[fe80::1%25eth0]", 4840, "/"));
    }

    @Test
    void theHostIsReplacedAndTheRestKept() {
        assertThat(EndpointUrl.parse("opc.tcp://a:4840/x").withHost("b").toString()).isEqualTo("opc.tcp://b:4840/x");
        assertThat(EndpointUrl.parse("opc.tcp://a/x").withHost("[::1]").toString()).isEqualTo("opc.tcp://[::1]/x");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "localhost:4840", "://host", "opc.tcp://", "opc.tcp://:4840/", "opc.tcp://h:port/",
        "opc.tcp://h:70000/", "opc.tcp://[::1/", "opc.tcp://[::1]x/"})
    void malformedUrlsAreRefused(String url) {
        assertThatThrownBy(() -> EndpointUrl.parse(url)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theFilterChecksSchemeAndPathButNotHostOrPort() {
        EndpointPathFilter filter = EndpointPathFilter.ofUrls(List.of("opc.tcp://server:4840/Line1", "opc.tcp://server:4840"));

        assertThat(filter.test("opc.tcp://10.1.2.3:4840/line1")).isTrue();
        assertThat(filter.test("opc.tcp://proxy:14840/LINE1/")).isTrue();
        assertThat(filter.test("OPC.TCP://other")).isTrue();
        assertThat(filter.test("opc.tcp://other/")).isTrue();
        assertThat(filter.test("opc.tcp://server:4840/line2")).isFalse();
        assertThat(filter.test("https://server:4840/line1")).isFalse();
        assertThat(filter.test("server:4840/line1")).isFalse();
        assertThat(filter.test(null)).isFalse();
    }
}
