package dev.opcua.spring.boot.actuate.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.testing.TestClient;
import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** Health of a real server: its state, endpoints, sessions and the expiry of its application certificate. */
class OpcUaServerHealthIndicatorTest {

    /** When the certificate was issued; the clocks of the tests are set relative to it. */
    private static final Instant ISSUED = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private static final Instant EXPIRES = ISSUED.plus(Duration.ofDays(100));
    private static ApplicationCertificate certificate;

    private OpcUaServer server;

    @BeforeAll
    static void issueCertificate() {
        certificate = CertificateBuilder.forApplication("health test server")
                .applicationUri("urn:test:actuate:server")
                .hostNames("127.0.0.1")
                .validityWindow(ISSUED.minus(Duration.ofDays(1)), EXPIRES)
                .build();
    }

    @AfterEach
    void closeServer() {
        if (server != null) {
            server.close();
        }
    }

    private static Clock at(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    private Health health(Instant now) {
        return new OpcUaServerHealthIndicator(server, at(now), Duration.ofDays(30)).health();
    }

    @Test
    void a_listening_server_is_UP_with_its_endpoints_sessions_and_secure_channels() throws Exception {
        server = TestServers.started(TestServers.plant(), b -> { });
        try (TestClient client = TestClient.connect(server)) {
            Health health = new OpcUaServerHealthIndicator(server).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails())
                    .containsEntry("state", "RUNNING")
                    .containsEntry("applicationUri", "urn:test:actuate:server")
                    .containsEntry("sessions", 1)
                    .containsEntry("secureChannels", 1)
                    .doesNotContainKeys("certificate", "certificateWarning");
            assertThat(health.getDetails().get("endpoints")).isEqualTo(List.of(Map.of("url", server.endpointUrl(),
                    "securityPolicy", "None", "securityMode", "None")));
        }
    }

    @Test
    void a_server_not_yet_started_is_DOWN_and_so_is_a_stopped_one() {
        server = TestServers.builder(TestServers.plant()).build();
        OpcUaServerHealthIndicator indicator = new OpcUaServerHealthIndicator(server);

        Health before = indicator.health();
        assertThat(before.getStatus()).isEqualTo(Status.DOWN);
        assertThat(before.getDetails()).containsEntry("state", "NOT_STARTED");

        server.start();
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);

        server.close();
        Health after = indicator.health();
        assertThat(after.getStatus()).isEqualTo(Status.DOWN);
        assertThat(after.getDetails()).containsEntry("state", "STOPPED").doesNotContainKey("endpoints");
    }

    @Test
    void a_certificate_far_from_expiry_is_listed_without_a_warning() {
        server = TestServers.started(TestServers.plant(), b -> b.certificate(certificate));

        Health health = health(ISSUED);

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).doesNotContainKey("certificateWarning");
        assertThat(health.getDetails().get("certificate")).isEqualTo(Map.of(
                "subject", certificate.certificate().getSubjectX500Principal().getName(),
                "notAfter", EXPIRES.toString(),
                "daysUntilExpiry", 100L));
    }

    @Test
    void a_certificate_that_expires_within_30_days_keeps_the_server_UP_with_a_certificateWarning() {
        server = TestServers.started(TestServers.plant(), b -> b.certificate(certificate));

        Health health = health(EXPIRES.minus(Duration.ofDays(12)));

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails().get("certificate")).asInstanceOf(
                org.assertj.core.api.InstanceOfAssertFactories.MAP).containsEntry("daysUntilExpiry", 12L);
        assertThat(health.getDetails().get("certificateWarning")).asString()
                .contains("expires in 12 days", EXPIRES.toString());
    }

    @Test
    void an_expired_certificate_makes_the_server_DOWN_with_the_reason() {
        server = TestServers.started(TestServers.plant(), b -> b.certificate(certificate));

        Health health = health(EXPIRES.plus(Duration.ofDays(1)));

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("state", "RUNNING");
        assertThat(health.getDetails().get("reason")).asString()
                .contains("application certificate expired on " + EXPIRES);
    }
}
