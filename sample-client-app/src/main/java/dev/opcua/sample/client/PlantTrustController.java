package dev.opcua.sample.client;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.certificates.ServerCertificateManager;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.structured.TrustListDataType;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /plant/trust}: what the plant trusts and what it rejected, read through push certificate
 * management (Part 12, 7.8.2 and 7.10.12) with {@link ServerCertificateManager}: the plant's TrustList file and
 * its GetRejectedList, each certificate as subject, thumbprint and expiry. The plant answers only a
 * SecurityAdmin over SignAndEncrypt (its user {@code admin}, profile {@code secure}, docs/OPERATIONS.md);
 * otherwise this answers 403 with the status the plant refused with.
 */
@RestController
public class PlantTrustController {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final OpcUaClient plant;

    public PlantTrustController(OpcUaClient plant) {
        this.plant = plant;
    }

    @GetMapping("/plant/trust")
    public ResponseEntity<Map<String, Object>> trust() throws InterruptedException {
        ServerCertificateManager manager = new ServerCertificateManager(plant);
        Map<String, Object> body = new LinkedHashMap<>();
        try {
            TrustListDataType trust = manager.readTrustList().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            body.put("trusted", describe(trust.trustedCertificates()));
            body.put("issuers", describe(trust.issuerCertificates()));
            List<ByteString> rejected = manager.getRejectedList().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .stream().map(ByteString::of).toList();
            body.put("rejected", describe(rejected.toArray(ByteString[]::new)));
            return ResponseEntity.ok(body);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UaException refused) {
                body.put("status", refused.statusCode().name());
                body.put("message", refused.getMessage());
                return ResponseEntity.status(HttpStatus.FORBIDDEN).body(body);
            }
            throw new IllegalStateException("reading the plant's trust list failed", e.getCause());
        } catch (TimeoutException e) {
            body.put("message", "the plant did not answer within " + TIMEOUT.toSeconds() + " s");
            return ResponseEntity.status(HttpStatus.GATEWAY_TIMEOUT).body(body);
        }
    }

    private static List<Map<String, Object>> describe(ByteString[] certificates) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ByteString der : certificates == null ? new ByteString[0] : certificates) {
            X509Certificate c = Certificates.decodeChain(der.bytes()).get(0);
            out.add(Map.of("subject", c.getSubjectX500Principal().getName(),
                    "thumbprint", Certificates.hex(Certificates.thumbprint(c)),
                    "notAfter", c.getNotAfter().toInstant().toString()));
        }
        return out;
    }
}
