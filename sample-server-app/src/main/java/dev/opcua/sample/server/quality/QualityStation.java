package dev.opcua.sample.server.quality;

import dev.opcua.sample.server.plant.FillingLine;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The camera inspection after the filler: every bottle the line produced is inspected, about one in
 * a hundred is rejected (under-filled, cap missing or label skewed). Plain Java: its nodes are built
 * in code by {@link QualityStationNodes}.
 */
@Component
public class QualityStation {

    static final String[] REJECT_REASONS = {"under-filled", "cap missing", "label skewed"};

    private final FillingLine line;
    private final Random random = new Random(7);
    private final AtomicLong inspected = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private volatile String lastRejectReason = "";
    private long seenProduced;

    public QualityStation(FillingLine line) {
        this.line = line;
    }

    public long inspected() {
        return inspected.get();
    }

    public long rejected() {
        return rejected.get();
    }

    /** Rejected bottles in percent of those inspected; 0 before the first. */
    public double rejectRate() {
        long all = inspected.get();
        return all == 0 ? 0 : Math.round(rejected.get() * 10_000.0 / all) / 100.0;
    }

    public String lastRejectReason() {
        return lastRejectReason;
    }

    /** Sets both counters to zero (the method ResetStatistics). */
    public synchronized void resetStatistics() {
        inspected.set(0);
        rejected.set(0);
        lastRejectReason = "";
    }

    /** Inspects the bottles produced since the last call; a reset of the line's counter starts over. */
    @Scheduled(fixedRate = 1000, initialDelay = 1000)
    public synchronized void inspect() {
        long produced = line.getBottlesProduced();
        long fresh = produced >= seenProduced ? produced - seenProduced : produced;
        seenProduced = produced;
        for (long i = 0; i < fresh; i++) {
            inspected.incrementAndGet();
            if (random.nextInt(100) == 0) {
                rejected.incrementAndGet();
                lastRejectReason = REJECT_REASONS[random.nextInt(REJECT_REASONS.length)];
            }
        }
    }
}
