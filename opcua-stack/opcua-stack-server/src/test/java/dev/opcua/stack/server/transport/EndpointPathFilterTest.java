package dev.opcua.stack.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The Hello's EndpointUrl check (Part 6, 7.1.2.3). */
class EndpointPathFilterTest {

    @Test
    void the_filter_checks_scheme_and_path_but_not_host_or_port() {
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
