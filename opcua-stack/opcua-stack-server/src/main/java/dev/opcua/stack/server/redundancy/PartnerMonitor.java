package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.enumerated.ServerState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the other servers of a Warm, Hot or HotAndMirrored set (Part 4, 6.6.2) and fills RedundantServerArray
 * (Part 5, 6.3.9 NonTransparentRedundancyType; 12.7 RedundantServerDataType: ServerId, ServiceLevel,
 * ServerState) from what it sees: every {@link PartnerMonitorSettings#interval()} each partner is read through
 * its {@link PartnerReader} (thread {@code opcua-partner-monitor}).
 *
 * <ul>
 *   <li>Reachable: its entry shows its own ServiceLevel and ServerState.</li>
 *   <li>Unreachable (no session, a failed or late read): ServiceLevel 0 and ServerState Unknown (Part 5, 12.6:
 *       the state is not known), logged once when it goes and once when it comes back.</li>
 *   <li>Not a partner of this server: its ServerUri is not the configured one, its NamespaceArray differs from
 *       index 2 on (index 1 is each server's own), or its {@link AddressSpaceFingerprint} differs (Part 4,
 *       6.6.2.2: the servers of a set have an identical AddressSpace). Logged at ERROR once per change, shown
 *       in {@link #partners()}, and this server's ServiceLevel is held at {@link #MISMATCH_LEVEL} (Degraded,
 *       Part 4, 6.6.2.4.2) while it lasts, so that clients and operators see that the set is not sound.</li>
 * </ul>
 *
 * Owned by the server: started after the transport binds, closed with it (closing its readers).
 */
public final class PartnerMonitor implements ServiceLevelContributor, AutoCloseable {

    /** This server's ServiceLevel ceiling while a partner serves another address space or ServerUri. */
    public static final int MISMATCH_LEVEL = 100;

    private static final Logger log = LoggerFactory.getLogger(PartnerMonitor.class);

    private final List<RedundancyPartner> partners;
    private final PartnerMonitorSettings settings;
    private final RedundancyObject redundancy;
    private final Supplier<String[]> ownNamespaces;
    private final Supplier<String> ownFingerprint;
    private final Function<RedundancyPartner, PartnerReader> readerFactory;
    private final ConcurrentHashMap<String, PartnerStatus> statuses = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, PartnerReader> readers = new ConcurrentHashMap<>();
    private ScheduledExecutorService executor;

    /**
     * @param redundancy the Server object's redundancy nodes, whose RedundantServerArray this fills
     * @param ownNamespaces this server's NamespaceArray
     * @param ownFingerprint this server's {@link AddressSpaceFingerprint#value()}
     * @param readerFactory a reader for a partner, e.g. a {@link ClientPartnerReader}
     */
    public PartnerMonitor(RedundancyObject redundancy, PartnerMonitorSettings settings, Supplier<String[]> ownNamespaces,
            Supplier<String> ownFingerprint, Function<RedundancyPartner, PartnerReader> readerFactory) {
        this.redundancy = Objects.requireNonNull(redundancy, "redundancy");
        this.partners = redundancy.settings().partners();
        this.settings = Objects.requireNonNull(settings, "settings");
        this.ownNamespaces = ownNamespaces;
        this.ownFingerprint = ownFingerprint;
        this.readerFactory = readerFactory;
        partners.forEach(p -> statuses.put(p.serverUri(), PartnerStatus.unknown(p)));
    }

    /** Opens a reader per partner and reads them every interval from now on. */
    public synchronized void start() {
        if (executor != null) {
            return;
        }
        for (RedundancyPartner partner : partners) {
            readers.put(partner.serverUri(), readerFactory.apply(partner));
        }
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "opcua-partner-monitor");
            t.setDaemon(true);
            return t;
        });
        long interval = settings.interval().toMillis();
        // the first read after one interval: the readers' sessions are being opened now
        executor.scheduleWithFixedDelay(this::checkAll, interval, interval, TimeUnit.MILLISECONDS);
        log.info("partner monitor: watching {} every {} ms", partners.stream().map(RedundancyPartner::endpointUrl)
                .toList(), settings.interval().toMillis());
    }

    /** What was last seen of each partner, in the configured order. */
    public List<PartnerStatus> partners() {
        List<PartnerStatus> all = new ArrayList<>(partners.size());
        partners.forEach(p -> all.add(statuses.get(p.serverUri())));
        return all;
    }

    /** {@link #MISMATCH_LEVEL} while a reachable partner is not a partner of this server, else healthy. */
    @Override
    public ServiceLevelStatus assess() {
        for (PartnerStatus status : statuses.values()) {
            if (status.mismatch() != null) {
                return ServiceLevelStatus.degraded(MISMATCH_LEVEL, status.mismatch());
            }
        }
        return ServiceLevelStatus.healthy();
    }

    private void checkAll() {
        for (RedundancyPartner partner : partners) {
            try {
                check(partner);
            } catch (RuntimeException e) { // the next round tries again
                log.warn("partner monitor: checking {} failed", partner.serverUri(), e);
            }
        }
    }

    /** Reads one partner and records what it found (package-private for tests). */
    void check(RedundancyPartner partner) {
        PartnerReader reader = readers.get(partner.serverUri());
        PartnerFacts facts;
        String problem = null;
        try {
            facts = reader.read().get(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception e) {
            facts = null;
            Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null
                    ? e.getCause() : e;
            problem = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        }
        record(partner, facts, problem);
    }

    private void record(RedundancyPartner partner, PartnerFacts facts, String problem) {
        PartnerStatus previous = statuses.get(partner.serverUri());
        PartnerStatus now = facts == null
                ? new PartnerStatus(partner.serverUri(), partner.endpointUrl(), false, 0, ServerState.Unknown, null,
                        problem, Instant.now())
                : new PartnerStatus(partner.serverUri(), partner.endpointUrl(), true, facts.serviceLevel(),
                        facts.state(), mismatch(partner, facts), null, Instant.now());
        statuses.put(partner.serverUri(), now);
        redundancy.reportPartner(partner.serverUri(), now.serviceLevel(), now.state());
        if (previous.reachable() != now.reachable() || previous.checkedAt() == null) {
            if (now.reachable()) {
                log.info("partner monitor: partner {} at {} reachable: ServiceLevel {}, {}", partner.serverUri(),
                        partner.endpointUrl(), now.serviceLevel(), now.state());
            } else {
                log.warn("partner monitor: partner {} at {} unreachable ({}); RedundantServerArray shows it with"
                        + " ServiceLevel 0, state Unknown", partner.serverUri(), partner.endpointUrl(), problem);
            }
        }
        if (now.reachable() && !Objects.equals(previous.mismatch(), now.mismatch())) {
            if (now.mismatch() != null) {
                log.error("partner monitor: {} at {} does not form a redundant set with this server: {}; this server's"
                        + " ServiceLevel is held at {} until it does", partner.serverUri(), partner.endpointUrl(),
                        now.mismatch(), MISMATCH_LEVEL);
            } else if (previous.mismatch() != null) {
                log.info("partner monitor: {} matches this server again", partner.serverUri());
            }
        }
    }

    /** Why the partner is not this server's partner, or null (Part 4, 6.6.2.2; see the class comment). */
    private String mismatch(RedundancyPartner partner, PartnerFacts facts) {
        if (!partner.serverUri().equals(facts.serverUri())) {
            return "its ServerUri is " + facts.serverUri() + ", configured " + partner.serverUri();
        }
        String[] own = ownNamespaces.get();
        List<String> theirs = facts.namespaces();
        for (int i = 2; i < Math.max(own.length, theirs.size()); i++) {
            String mine = i < own.length ? own[i] : null;
            String its = i < theirs.size() ? theirs.get(i) : null;
            if (!Objects.equals(mine, its)) {
                return "its NamespaceArray differs at index " + i + ": " + its + ", here " + mine;
            }
        }
        String fingerprint = ownFingerprint.get();
        if (facts.fingerprint() != null && !facts.fingerprint().equals(fingerprint)) {
            return "its address space differs (fingerprint " + facts.fingerprint() + ", here " + fingerprint + ")";
        }
        return null;
    }

    /** Stops reading and closes the readers; RedundantServerArray keeps the last entries. */
    @Override
    public synchronized void close() {
        if (executor != null) {
            executor.shutdownNow();
            try {
                executor.awaitTermination(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (PartnerReader reader : readers.values()) {
            try {
                reader.close();
            } catch (RuntimeException e) {
                log.warn("partner monitor: closing {} failed", reader, e);
            }
        }
        readers.clear();
    }
}
