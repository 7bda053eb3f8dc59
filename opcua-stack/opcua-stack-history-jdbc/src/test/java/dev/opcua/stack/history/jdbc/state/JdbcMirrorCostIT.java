package dev.opcua.stack.history.jdbc.state;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.opcua.stack.history.jdbc.TestPostgres;
import dev.opcua.stack.server.redundancy.MirroredPair;
import dev.opcua.stack.server.redundancy.SessionMirror;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What mirroring a session to PostgreSQL costs per notification at a steady rate: one session, one subscription
 * (publishing 500 ms), one item changing {@value #RATE} times a second for {@value #SECONDS} s, the mirror writing
 * every 50 ms through a connection pool. Prints the mirror thread's time (snapshots, encoding, writes) and the store
 * writes' time per notification sent. A measurement, not a check: run with {@code -Dopcua.bench=true}.
 */
@EnabledIfSystemProperty(named = "opcua.bench", matches = "true")
class JdbcMirrorCostIT {

    private static final int RATE = 1_000;
    private static final int SECONDS = 10;

    @Test
    void mirroring_a_session_at_a_steady_rate_costs_what_it_prints() throws Exception {
        HikariConfig pool = new HikariConfig();
        pool.setDataSource(TestPostgres.dataSource());
        pool.setMaximumPoolSize(4);
        pool.setPoolName("mirror-cost");
        try (HikariDataSource pooled = new HikariDataSource(pool);
                MirroredPair pair = new MirroredPair(JdbcSessionStateStore.open(pooled, "mirror_cost"))) {
            long period = TimeUnit.SECONDS.toNanos(1) / RATE;
            long start = System.nanoTime();
            for (int i = 1; i <= RATE * SECONDS; i++) {
                pair.valueA.set("Value", i);
                LockSupport.parkNanos(start + i * period - System.nanoTime());
            }
            pair.a.sessionMirror().flushNow();
            SessionMirror mirror = pair.a.sessionMirror();
            long notifications = pair.a.statistics().subscriptions().notificationsSent();
            assertThat(notifications).isPositive();
            System.out.printf("mirror cost at %d values/s for %d s: %d notifications, %d states written;"
                    + " mirror thread %.1f ms (%.2f us per notification), store writes %.1f ms (%.2f us per"
                    + " notification, %.0f us per state)%n", RATE, SECONDS, notifications, mirror.writtenStates(),
                    mirror.cycleNanos() / 1e6, mirror.cycleNanos() / 1e3 / notifications, mirror.writeNanos() / 1e6,
                    mirror.writeNanos() / 1e3 / notifications,
                    mirror.writeNanos() / 1e3 / Math.max(1, mirror.writtenStates()));
        }
    }
}
