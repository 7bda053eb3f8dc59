package dev.opcua.stack.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.requests.RejectReason;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.requests.RequestStatistics;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One socket read per connection per turn of the event loop ({@code transport.reads-per-turn}, default 1):
 * a quiet session's Read that waits in its socket behind a flood on the same event loop is served
 * before the flood is, not after it. Small Reads run on the event loop (inline when idle), so the order
 * in which the server's variable suppliers are called is the order the loop served the requests; the
 * flood's first Read holds the only event loop (a gate) until the whole flood and the quiet Read were
 * sent. Nothing about time is asserted. With Netty's 16 reads a turn ({@code readsPerTurn(16)}) the quiet
 * Read was served after all 5,000 Reads of the flood in a trial; with one, after 3.
 */
class ReadsPerTurnIT {

    /** About 240 KB of Reads: more than three reads of 64 KiB. */
    private static final int FLOOD = 3_000;

    @BeforeEach
    void watchLeaks() {
        LeakWatch.install();
    }

    @AfterEach
    void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @Test
    void a_quiet_read_behind_a_flood_on_the_same_event_loop_is_served_before_the_flood_is_done() throws Exception {
        // every Read of the flood served: the flood bound per read is off here (the next test has it on)
        Outcome outcome = floodBehindAGate(0);

        assertThat(outcome.served()).isEqualTo(FLOOD);
        assertThat(outcome.refused()).isZero();
        assertThat(outcome.servedBeforeQuiet()).as("flood Reads served before the quiet one")
                .isBetween(0L, FLOOD / 2L);
    }

    /**
     * The flood bound per socket read ({@code requests.max-per-read}, default 128): the flood arrives in
     * full 64 KiB reads of hundreds of Reads each, so from the second such read on the Reads beyond the
     * bound are answered BadServerTooBusy, counted as refused; every Read is answered, and the quiet one
     * is served.
     */
    @Test
    void a_pipelined_flood_is_refused_beyond_the_bound_per_read_and_every_read_is_answered() throws Exception {
        Outcome outcome = floodBehindAGate(RequestPoolSettings.DEFAULT_MAX_REQUESTS_PER_READ);

        assertThat(outcome.refused()).as("Reads answered BadServerTooBusy").isPositive();
        assertThat(outcome.served() + outcome.refused()).as("every Read answered").isEqualTo(FLOOD);
        assertThat(outcome.counted()).as("the server's refusal counter").isEqualTo(outcome.refused());
        assertThat(outcome.servedBeforeQuiet()).isBetween(0L, FLOOD / 2L);
    }

    private record Outcome(long served, long refused, long counted, long servedBeforeQuiet) {
    }

    private static Outcome floodBehindAGate(int maxRequestsPerRead) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        AtomicBoolean atGate = new AtomicBoolean();
        AtomicLong floodServed = new AtomicLong();
        AtomicLong floodServedBeforeQuiet = new AtomicLong(-1);
        InMemoryNodeManager plant = InMemoryNodeManager.builder("urn:test:turns")
                .variable("Gate", BuiltinType.Int64, v -> v.valueSupplier(() -> {
                    atGate.set(true);
                    try {
                        gate.await(20, TimeUnit.SECONDS); // holds the event loop: the rest arrives meanwhile
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Variant.of(0L);
                }))
                .variable("Flood", BuiltinType.Int64,
                        v -> v.valueSupplier(() -> Variant.of(floodServed.incrementAndGet())))
                .variable("Quiet", BuiltinType.Int64, v -> v.valueSupplier(() -> {
                    floodServedBeforeQuiet.set(floodServed.get());
                    return Variant.of(0L);
                }))
                .nonBlockingCallbacks()
                .build();
        try (HostileServer server = HostileServer.start(b -> b.nodeManager(plant).ioThreads(1)
                .requestPool(RequestPoolSettings.DEFAULT.withMaxRequestsPerRead(maxRequestsPerRead)))) {
            RequestStatistics statistics = server.server().statistics().requests();
            UaTcpClientChannel flooder = server.connect();
            UaTcpClientChannel quiet = server.connect();
            NodeId flooding = TestSessions.open(flooder, server.endpointUrl());
            NodeId reading = TestSessions.open(quiet, server.endpointUrl());
            long countedBefore = statistics.rejected(RejectReason.TOO_BUSY);

            List<CompletableFuture<ReadResponse>> flood = new ArrayList<>();
            HostileServer.read(flooder, flooding, plant.nodeId("Gate"));
            HostileServer.await("the gate holds the event loop", atGate::get);
            for (int i = 0; i < FLOOD; i++) {
                flood.add(HostileServer.read(flooder, flooding, plant.nodeId("Flood")));
            }
            CompletableFuture<ReadResponse> quietRead = HostileServer.read(quiet, reading, plant.nodeId("Quiet"));
            // lets the bytes reach the server's sockets: nothing on the server can be watched while the gate
            // holds its only event loop, so this stays a pause (not a measurement)
            Thread.sleep(300);
            gate.countDown();

            assertThat(quietRead.get(30, TimeUnit.SECONDS).results()[0].statusCode().isGood()).isTrue();
            long refused = 0;
            for (CompletableFuture<ReadResponse> read : flood) {
                try {
                    assertThat(read.get(60, TimeUnit.SECONDS).results()[0].statusCode().isGood()).isTrue();
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(UaException.class);
                    assertThat(((UaException) e.getCause()).statusCode().value())
                            .isEqualTo(StatusCodes.BadServerTooBusy);
                    refused++;
                }
            }
            long counted = statistics.rejected(RejectReason.TOO_BUSY) - countedBefore;
            flooder.close().get(10, TimeUnit.SECONDS);
            quiet.close().get(10, TimeUnit.SECONDS);
            return new Outcome(floodServed.get(), refused, counted, floodServedBeforeQuiet.get());
        }
    }
}
