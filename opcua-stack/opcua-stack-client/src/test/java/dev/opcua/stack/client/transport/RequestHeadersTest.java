package dev.opcua.stack.client.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RequestHeadersTest {

    @Test
    void creates_a_header_without_session_with_the_timeout_hint_and_a_non_zero_handle() {
        RequestHeader first = RequestHeaders.create(1500);
        RequestHeader second = RequestHeaders.create(0);

        assertThat(first.authenticationToken()).isEqualTo(NodeId.NULL);
        assertThat(first.timeoutHint()).isEqualTo(1500);
        assertThat(first.returnDiagnostics()).isZero();
        assertThat(first.requestHandle()).isNotZero();
        assertThat(second.requestHandle()).isNotEqualTo(first.requestHandle());
        assertThat(Duration.between(first.timestamp().toInstant(), Instant.now()).abs())
                .isLessThan(Duration.ofSeconds(5));
        assertThat(first.timestamp()).isNotEqualTo(DateTime.MIN_VALUE);
    }

    @Test
    void reads_the_timeout_hint_of_any_service_request() {
        GetEndpointsRequest request = new GetEndpointsRequest(RequestHeaders.create(2500), "opc.tcp://h", null, null);
        assertThat(RequestHeaders.timeoutHint(request)).isEqualTo(2500);
        assertThat(RequestHeaders.timeoutHint(new GetEndpointsRequest(null, "opc.tcp://h", null, null))).isZero();
    }

    @Test
    void a_structure_without_request_header_has_no_timeout_hint() {
        assertThat(RequestHeaders.timeoutHint(new ReadValueId(NodeId.NULL, 13, null, QualifiedName.NULL))).isZero();
    }
}
