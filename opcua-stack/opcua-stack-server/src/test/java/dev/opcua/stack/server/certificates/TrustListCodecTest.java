package dev.opcua.stack.server.certificates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.CrlBuilder;
import dev.opcua.stack.core.security.pki.TrustList;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.structured.TrustListDataType;
import java.security.cert.X509CRL;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrustListCodecTest {

    private static final ApplicationCertificate CA = CertificateBuilder.forApplication("codec CA").ca(true).build();
    private static final ApplicationCertificate APP = CertificateBuilder.forApplication("codec app")
            .applicationUri("urn:test:codec").issuedBy(CA).build();
    private static final X509CRL CRL = CrlBuilder.issuedBy(CA).build();

    @Test
    void the_file_is_the_bare_structure_in_ua_binary_field_by_field() {
        TrustListDataType value = new TrustListDataType(TrustListCodec.TRUSTED_CERTIFICATES,
                new ByteString[] {ByteString.wrap(new byte[] {1, 2})}, new ByteString[0], null, new ByteString[0]);

        byte[] bytes = TrustListCodec.encode(value);

        // Part 6, 5.2: UInt32 SpecifiedLists, then each ByteString[] as Int32 length and elements (-1 = null),
        // no ExtensionObject header (Part 12, 7.8.2.1)
        assertThat(bytes).containsExactly(
                1, 0, 0, 0,
                1, 0, 0, 0, 2, 0, 0, 0, 1, 2,
                0, 0, 0, 0,
                -1, -1, -1, -1,
                0, 0, 0, 0);
    }

    @Test
    void a_trust_list_round_trips_through_the_file_with_the_lists_the_masks_select() {
        TrustList list = new TrustList(List.of(APP.certificate()), List.of(CA.certificate()), List.of(), List.of(CRL));

        TrustListDataType all = TrustListCodec.decode(TrustListCodec.encode(TrustListCodec.of(list, 15)), 0);
        TrustList parsed = TrustListCodec.parse(all);

        assertThat(parsed.trustedCertificates()).containsExactly(APP.certificate());
        assertThat(parsed.issuerCertificates()).containsExactly(CA.certificate());
        assertThat(parsed.issuerCrls()).containsExactly(CRL);
        TrustListDataType issuersOnly = TrustListCodec.of(list, TrustListCodec.ISSUER_CERTIFICATES);
        assertThat(issuersOnly.specifiedLists()).isEqualTo(4);
        assertThat(issuersOnly.trustedCertificates()).isEmpty();
        assertThat(issuersOnly.issuerCertificates()).hasSize(1);
    }

    @Test
    void a_file_over_the_maximum_size_is_refused_before_decoding() {
        byte[] bytes = TrustListCodec.encode(TrustListCodec.of(TrustList.trusting(APP.certificate()), 15));

        assertThatThrownBy(() -> TrustListCodec.decode(bytes, bytes.length - 1)).isInstanceOfSatisfying(
                UaException.class, e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadRequestTooLarge))
                .hasMessageContaining("MaxTrustListSize");
        assertThat(TrustListCodec.decode(bytes, bytes.length).trustedCertificates()).hasSize(1);
    }

    @Test
    void truncated_or_trailing_bytes_and_unknown_mask_bits_are_refused() {
        byte[] bytes = TrustListCodec.encode(TrustListCodec.of(TrustList.trusting(APP.certificate()), 15));

        assertThatThrownBy(() -> TrustListCodec.decode(Arrays.copyOf(bytes, bytes.length - 1), 0))
                .isInstanceOf(UaException.class).hasMessageContaining("not a TrustListDataType");
        assertThatThrownBy(() -> TrustListCodec.decode(Arrays.copyOf(bytes, bytes.length + 1), 0))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadDecodingError))
                .hasMessageContaining("after its TrustListDataType");
        byte[] badMask = TrustListCodec.encode(new TrustListDataType(16, null, null, null, null));
        assertThatThrownBy(() -> TrustListCodec.decode(badMask, 0)).isInstanceOfSatisfying(UaException.class,
                e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadInvalidArgument));
    }

    @Test
    void a_certificate_that_does_not_parse_is_bad_certificate_invalid_naming_its_place() {
        TrustListDataType value = new TrustListDataType(TrustListCodec.TRUSTED_CERTIFICATES,
                new ByteString[] {ByteString.wrap(new byte[] {0x30, 0x03, 1, 2, 3})}, null, null, null);

        assertThatThrownBy(() -> TrustListCodec.parse(value)).isInstanceOfSatisfying(UaException.class,
                e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadCertificateInvalid))
                .hasMessageContaining("TrustedCertificates[0]");
    }
}
