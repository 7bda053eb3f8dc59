package dev.opcua.stack.server.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.SignedSoftwareCertificate;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The hand-off of audit records to the audit thread: never blocking, every record raised or counted as dropped. */
class AuditLogTest {

    private static AuditRecord failedLogin(int n) {
        return AuditRecords.activateSession(new AuditContext("user" + n, null, null, null, null, n),
                new SignedSoftwareCertificate[0], new AnonymousIdentityToken(null), StatusCodes.BadUserAccessDenied,
                null);
    }

    @Test
    void a_flood_of_failed_logins_is_delivered_or_counted_as_dropped_and_never_blocks_the_callers() throws Exception {
        CountDownLatch sinkReleased = new CountDownLatch(1);
        List<UaEvent> delivered = new CopyOnWriteArrayList<>();
        AtomicInteger heard = new AtomicInteger();
        AuditLog log = new AuditLog("urn:test", (notifier, event) -> {
            try {
                sinkReleased.await(); // the subscribers are slow: the queue fills
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            delivered.add(event);
        }, List.of(record -> heard.incrementAndGet()), 64);
        log.start();
        int threads = 4;
        int perThread = 2_500;
        Thread[] callers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int base = t * perThread;
            callers[t] = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    log.raise(failedLogin(base + i));
                }
            }, "flood-" + t);
            callers[t].start();
        }
        for (Thread caller : callers) {
            caller.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(caller.isAlive()).as("a caller blocked on the full queue").isFalse();
        }
        sinkReleased.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> log.backlog() == 0
                && log.raised() + log.dropped() == threads * perThread);
        log.close();

        assertThat(log.raised() + log.dropped()).isEqualTo(threads * perThread);
        assertThat(log.dropped()).as("a queue of 64 cannot hold the flood").isPositive();
        assertThat(delivered).hasSize((int) log.raised());
        assertThat(heard.get()).isEqualTo((int) log.raised());
    }

    @Test
    void a_disabled_log_raises_nothing_and_counts_nothing() {
        AuditLog log = AuditLog.disabled();
        log.start();
        log.raise(failedLogin(1));
        log.close();

        assertThat(log.enabled()).isFalse();
        assertThat(log.raised()).isZero();
        assertThat(log.dropped()).isZero();
    }

    @Test
    void close_delivers_what_was_queued_and_drops_what_comes_later() {
        List<UaEvent> delivered = new CopyOnWriteArrayList<>();
        AuditLog log = new AuditLog("urn:test", (notifier, event) -> delivered.add(event), List.of(), 100);
        log.start();
        for (int i = 0; i < 10; i++) {
            log.raise(failedLogin(i));
        }
        log.close();
        log.raise(failedLogin(11));

        assertThat(delivered).hasSize(10);
        assertThat(log.raised()).isEqualTo(10);
        assertThat(log.dropped()).isEqualTo(1);
    }
}
