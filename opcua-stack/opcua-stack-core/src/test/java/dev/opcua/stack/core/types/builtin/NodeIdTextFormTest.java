package dev.opcua.stack.core.types.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The text forms of NodeId (Part 6, 5.3.1.10) and ExpandedNodeId (Part 6, 5.3.1.11). */
class NodeIdTextFormTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "ns=2;s=Line1.Speed",
        "i=2253",
        "ns=1;i=5",
        "g=09087e75-8e5e-499b-954f-f2a9603db28a",
        "ns=3;b=M/RbKBsRVkePCePcx24oRA==",
        "ns=65535;i=4294967295",
        "s=",
    })
    void node_id_text_round_trips_through_parse_and_to_string(String text) {
        assertThat(NodeId.parse(text).toString()).isEqualTo(text);
    }

    @Test
    void parsed_node_ids_have_their_parts() {
        assertThat(NodeId.parse("ns=2;s=Line1.Speed")).isEqualTo(NodeId.string(2, "Line1.Speed"));
        assertThat(NodeId.parse("i=2253")).isEqualTo(NodeId.ns0(2253)).isSameAs(NodeId.ns0(2253));
        assertThat(NodeId.parse("ns=1;i=5")).isEqualTo(NodeId.numeric(1, 5));
        assertThat(NodeId.parse("g=09087e75-8e5e-499b-954f-f2a9603db28a"))
                .isEqualTo(NodeId.guid(0, UUID.fromString("09087e75-8e5e-499b-954f-f2a9603db28a")));
        NodeId opaque = NodeId.parse("ns=3;b=M/RbKBsRVkePCePcx24oRA==");
        assertThat(opaque.namespaceIndex()).isEqualTo(3);
        assertThat(opaque.idType()).isEqualTo(IdType.Opaque);
        assertThat(((ByteString) opaque.identifier()).length()).isEqualTo(16);
        assertThat(((ByteString) opaque.identifier()).byteAt(0)).isEqualTo((byte) 0x33);
    }

    @Test
    void string_identifier_may_contain_semicolons_and_equals() {
        NodeId id = NodeId.parse("ns=4;s=a=b;c");
        assertThat(id).isEqualTo(NodeId.string(4, "a=b;c"));
        assertThat(id.toString()).isEqualTo("ns=4;s=a=b;c");
    }

    @Test
    void namespace_zero_is_left_out_of_the_text() {
        // Part 6, 5.3.1.10: the ns= clause is omitted for namespace 0.
        assertThat(NodeId.parse("ns=0;i=85").toString()).isEqualTo("i=85");
        assertThat(NodeId.numeric(0, 85).toString()).isEqualTo("i=85");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "nsu=urn:acme:line1;s=Speed",
        "svr=2;nsu=urn:x;i=5",
        "svr=1;ns=2;i=3",
        "ns=2;s=Line1.Speed",
        "svr=4294967295;i=1",
    })
    void expanded_node_id_text_round_trips_through_parse_and_to_string(String text) {
        assertThat(ExpandedNodeId.parse(text).toString()).isEqualTo(text);
    }

    @Test
    void parsed_expanded_node_ids_have_their_parts() {
        ExpandedNodeId uri = ExpandedNodeId.parse("nsu=urn:acme:line1;s=Speed");
        assertThat(uri.namespaceUri()).isEqualTo("urn:acme:line1");
        assertThat(uri.nodeId()).isEqualTo(NodeId.string(0, "Speed"));
        assertThat(uri.serverIndex()).isZero();
        assertThat(uri.isLocal()).isFalse();

        assertThat(ExpandedNodeId.parse("svr=2;nsu=urn:x;i=5"))
                .isEqualTo(ExpandedNodeId.of(NodeId.numeric(0, 5), "urn:x", 2));
        assertThat(ExpandedNodeId.parse("svr=1;ns=2;i=3")).isEqualTo(ExpandedNodeId.of(NodeId.numeric(2, 3), null, 1));
        assertThat(ExpandedNodeId.parse("i=85")).isEqualTo(ExpandedNodeId.of(NodeId.ns0(85)));
        assertThat(ExpandedNodeId.parse("i=85").isLocal()).isTrue();
    }

    @Test
    void semicolon_and_percent_in_a_namespace_uri_are_percent_escaped() {
        // Part 6, 5.3.1.11: reserved characters ';' and '%' in the URI are replaced by '%' and two hex
        // digits (case insensitive): ';' is %3B, '%' is %25.
        ExpandedNodeId id = ExpandedNodeId.of(NodeId.numeric(0, 5), "urn:a;b%c", 0);
        assertThat(id.toString()).isEqualTo("nsu=urn:a%3Bb%25c;i=5");
        assertThat(ExpandedNodeId.parse("nsu=urn:a%3Bb%25c;i=5")).isEqualTo(id);
        assertThat(ExpandedNodeId.parse("nsu=urn:a%3bb%25c;i=5")).isEqualTo(id);
    }

    @Test
    void escaped_looking_text_in_a_uri_survives_a_round_trip() {
        ExpandedNodeId id = ExpandedNodeId.of(NodeId.string(0, "x"), "urn:%3B;%25", 0);
        assertThat(ExpandedNodeId.parse(id.toString())).isEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "ns=x;i=1",
        "ns=70000;i=1",
        "i=abc",
        "q=1",
        "nsu=urn:x;i=1",
        "i=4294967296",
        "i=",
        "ns=1",
        "ns=-1;i=1",
        "",
        "g=not-a-guid",
        "b=@@@",
        "i=99999999999",
    })
    void invalid_node_id_text_is_refused_quoting_the_text(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.parse(text))
                .withMessageContaining("'" + text + "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"svr=x;i=1", "svr=4294967296;i=1", "svr=1", "nsu=urn:x", "svr=-1;i=1", "nsu=urn:x;q=1"})
    void invalid_expanded_node_id_text_is_refused_quoting_the_text(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> ExpandedNodeId.parse(text))
                .withMessageContaining("'" + text + "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"svr=1;q=1", "svr=1;ns=x;i=1", "svr=2;i=abc"})
    void invalid_node_id_part_after_a_server_index_is_refused_quoting_the_whole_text(String text) {
        // The message must quote the text the caller passed, not only the part after "svr=<n>;".
        assertThatIllegalArgumentException().isThrownBy(() -> ExpandedNodeId.parse(text))
                .withMessageContaining("'" + text + "'");
    }

    @Test
    void node_id_factories_refuse_values_outside_their_ranges() {
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.numeric(0, -1));
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.numeric(0, 4_294_967_296L));
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.numeric(65536, 1));
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.string(-1, "x"));
        assertThatIllegalArgumentException().isThrownBy(() -> ExpandedNodeId.of(NodeId.NULL, null, -1));
    }

    @Test
    void null_node_ids_are_recognised() {
        // Part 6, 5.2.2.9 / Part 3, 8.2.4: namespace 0 and a null or empty identifier.
        assertThat(NodeId.NULL.isNull()).isTrue();
        assertThat(NodeId.string(0, "").isNull()).isTrue();
        assertThat(NodeId.guid(0, new UUID(0, 0)).isNull()).isTrue();
        assertThat(NodeId.opaque(0, ByteString.EMPTY).isNull()).isTrue();
        assertThat(NodeId.numeric(1, 0).isNull()).isFalse();
        assertThat(ExpandedNodeId.NULL.isNull()).isTrue();
    }
}
