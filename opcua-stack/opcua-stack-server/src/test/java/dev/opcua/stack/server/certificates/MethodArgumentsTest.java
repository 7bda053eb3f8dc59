package dev.opcua.stack.server.certificates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import org.junit.jupiter.api.Test;

class MethodArgumentsTest {

    @Test
    void too_few_and_too_many_arguments_have_their_own_statuses() {
        assertThatThrownBy(() -> new MethodArguments("UpdateCertificate", new Variant[1], 6))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadArgumentsMissing));
        assertThatThrownBy(() -> new MethodArguments("ApplyChanges", new Variant[] {Variant.ofBoolean(true)}, 0))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTooManyArguments));
    }

    @Test
    void an_argument_of_another_type_is_invalid_with_a_type_mismatch_for_it_alone() {
        MethodArguments args = new MethodArguments("CreateSigningRequest", new Variant[] {Variant.NULL,
                Variant.ofString("not a NodeId")}, 2);

        assertThatThrownBy(() -> args.nodeId(1, "certificateTypeId"))
                .isInstanceOfSatisfying(MethodArguments.InvalidArgument.class, e -> {
                    assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadInvalidArgument);
                    assertThat(e.inputArgumentResults()).containsExactly(StatusCode.GOOD,
                            StatusCode.of(StatusCodes.BadTypeMismatch));
                })
                .hasMessageContaining("certificateTypeId");
    }

    @Test
    void null_variants_stand_for_null_values_where_the_type_allows_one() {
        MethodArguments args = new MethodArguments("UpdateCertificate", new Variant[] {Variant.NULL,
                Variant.ofScalar(BuiltinType.NodeId, NodeId.NULL), Variant.NULL, Variant.NULL,
                Variant.ofScalar(BuiltinType.ByteString, ByteString.NULL)}, 5);

        assertThat(args.nodeId(0, "certificateGroupId")).isNull();
        assertThat(args.nodeId(1, "certificateTypeId")).isNull();
        assertThat(args.string(2, "privateKeyFormat")).isNull();
        assertThat(args.byteStrings(3, "issuerCertificates")).isEmpty();
        assertThat(args.byteString(4, "privateKey")).isNull();
        assertThatThrownBy(() -> args.bool(0, "regeneratePrivateKey"))
                .isInstanceOf(MethodArguments.InvalidArgument.class);
    }
}
