package dev.opcua.stack.server.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.pki.TrustList;
import dev.opcua.stack.core.types.structured.TrustListDataType;
import dev.opcua.stack.server.certificates.TrustListCodec;
import java.util.Set;

/**
 * The bytes a SecurityAdmin writes into the TrustList file (Part 12, 7.8.2: FileType Write, then
 * CloseAndUpdate): decoded as one TrustListDataType of at most 64 KiB, its certificates and CRLs parsed, and
 * what parses encodes back to bytes that decode to the same lists. Refusals must be the named statuses:
 * BadRequestTooLarge, BadDecodingError or BadEncodingLimitsExceeded, BadInvalidArgument for unknown
 * list masks, BadCertificateInvalid for a certificate or CRL that does not parse.
 */
class TrustListFileFuzzTest {

    private static final Set<Integer> ALLOWED = Set.of(StatusCodes.BadRequestTooLarge, StatusCodes.BadDecodingError,
            StatusCodes.BadEncodingLimitsExceeded, StatusCodes.BadInvalidArgument, StatusCodes.BadCertificateInvalid);

    @FuzzTest(maxDuration = "5m")
    void decodeAndParse(byte[] data) {
        TrustListDataType value;
        TrustList parsed;
        try {
            value = TrustListCodec.decode(data, 64 * 1024);
            parsed = TrustListCodec.parse(value);
        } catch (UaException refused) {
            if (!ALLOWED.contains((int) refused.statusCode().value())) {
                throw refused;
            }
            return;
        }
        TrustListDataType again = TrustListCodec.decode(TrustListCodec.encode(
                TrustListCodec.of(parsed, value.specifiedLists())), 0);
        if (again.specifiedLists() != value.specifiedLists()
                || again.trustedCertificates().length != parsed.trustedCertificates().size()) {
            throw new AssertionError("the parsed trust list does not encode back to the same lists");
        }
    }
}
