package dev.opcua.spring.boot.actuate.health;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.ServerStatistics;
import dev.opcua.stack.server.redundancy.RedundancyObject;
import dev.opcua.stack.server.redundancy.RedundancyPartner;
import dev.opcua.stack.server.redundancy.ServiceLevelStatus;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of an {@link OpcUaServer}: UP while it listens, DOWN before it started and after it stopped,
 * DOWN when its application instance certificate has expired (clients refuse secured channels then,
 * Part 4, 6.1.3), UP with a {@code certificateWarning} detail when the certificate expires within the
 * warning period (30 days by default).
 *
 * <p>Details: {@code state}, {@code applicationUri}, {@code endpoints} (url, securityPolicy,
 * securityMode), {@code sessions}, {@code secureChannels}, {@code serviceLevel} (level, band, reason: the
 * ServiceLevel clients read, Part 4, 6.6.2.4.2), {@code redundancy} (mode and, in a redundant set, serverUris and
 * partners) and, with a certificate, {@code certificate} (subject, notAfter, daysUntilExpiry). The ServiceLevel does
 * not change the status: a degraded server still serves.
 */
public class OpcUaServerHealthIndicator extends AbstractHealthIndicator {

    /** How long before its expiry the certificate is reported, by default. */
    public static final Duration DEFAULT_CERTIFICATE_WARNING_PERIOD = Duration.ofDays(30);

    private final OpcUaServer server;
    private final Clock clock;
    private final Duration certificateWarningPeriod;

    public OpcUaServerHealthIndicator(OpcUaServer server) {
        this(server, Clock.systemUTC(), DEFAULT_CERTIFICATE_WARNING_PERIOD);
    }

    /**
     * @param server the server
     * @param clock what tells the certificate's remaining validity
     * @param certificateWarningPeriod how long before its expiry the certificate is reported
     */
    public OpcUaServerHealthIndicator(OpcUaServer server, Clock clock, Duration certificateWarningPeriod) {
        super("OPC UA server health check failed");
        this.server = Objects.requireNonNull(server, "server");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.certificateWarningPeriod = Objects.requireNonNull(certificateWarningPeriod, "certificateWarningPeriod");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("applicationUri", String.valueOf(server.namespaces().uri(1)));
        if (!server.isRunning()) {
            builder.down().withDetail("state", server.lifecycle().name());
            return;
        }
        builder.up().withDetail("state", server.lifecycle().name());
        builder.withDetail("endpoints", endpoints(server.endpoints()));
        ServerStatistics statistics = server.statistics();
        builder.withDetail("sessions", statistics.currentSessions());
        ServerChannelCounters transport = statistics.transport();
        builder.withDetail("secureChannels", transport == null ? 0 : transport.secureChannels());
        ServiceLevelStatus level = server.serviceLevel().assess();
        Map<String, Object> serviceLevel = new LinkedHashMap<>();
        serviceLevel.put("level", level.level());
        serviceLevel.put("band", level.band().name());
        serviceLevel.put("reason", level.reason());
        builder.withDetail("serviceLevel", serviceLevel);
        builder.withDetail("redundancy", redundancy(server.redundancy()));
        ApplicationCertificate certificate = server.applicationCertificate();
        if (certificate != null) {
            checkCertificate(builder, certificate.certificate());
        }
    }

    private static Map<String, Object> redundancy(RedundancyObject redundancy) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("mode", redundancy.settings().mode().name());
        if (redundancy.settings().mode().nonTransparent()) {
            details.put("serverUris", redundancy.serverUris());
            List<Map<String, Object>> partners = new ArrayList<>();
            for (RedundancyPartner partner : redundancy.settings().partners()) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("serverUri", partner.serverUri());
                p.put("endpointUrl", partner.endpointUrl());
                partners.add(p);
            }
            details.put("partners", partners);
        }
        return details;
    }

    private void checkCertificate(Health.Builder builder, X509Certificate certificate) {
        Instant now = clock.instant();
        Instant notAfter = certificate.getNotAfter().toInstant();
        Duration left = Duration.between(now, notAfter);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("subject", certificate.getSubjectX500Principal().getName());
        details.put("notAfter", notAfter.toString());
        details.put("daysUntilExpiry", left.toDays());
        builder.withDetail("certificate", details);
        if (left.isNegative() || left.isZero()) {
            builder.down().withDetail("reason", "the application certificate expired on " + notAfter
                    + "; clients refuse its secure channels: renew it");
        } else if (left.compareTo(certificateWarningPeriod) < 0) {
            builder.withDetail("certificateWarning", "the application certificate expires in " + left.toDays()
                    + " days, on " + notAfter + ": renew it");
        }
    }

    private static List<Map<String, Object>> endpoints(List<EndpointDescription> endpoints) {
        List<Map<String, Object>> result = new ArrayList<>(endpoints.size());
        for (EndpointDescription endpoint : endpoints) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("url", endpoint.endpointUrl());
            details.put("securityPolicy", SecurityPolicy.nameOf(endpoint.securityPolicyUri()));
            details.put("securityMode", String.valueOf(endpoint.securityMode()));
            result.add(details);
        }
        return result;
    }
}
