package dev.opcua.stack.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.requests.RejectReason;
import dev.opcua.stack.server.requests.RequestStatistics;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Flood isolation, the small version (DESIGN.md section 3): one session keeps the
 * request queue full with Reads of a slow variable while another reads the same variable one Read at a
 * time. The flooder gets BadServerTooBusy, every Read of the other session succeeds, in the order it
 * sent them, and the rejection counter grows by what the flooder was refused. Nothing about time is
 * asserted.
 */
class FloodIsolationIT {

    private static final int POLITE_READS = 10;

    @BeforeEach
    void watchLeaks() {
        LeakWatch.install();
    }

    @AfterEach
    void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @Test
    void the_flooder_gets_server_too_busy_while_another_sessions_reads_all_succeed_in_order() throws Exception {
        AtomicLong sequence = new AtomicLong();
        InMemoryNodeManager plant = InMemoryNodeManager.builder("urn:test:hostile")
                .variable("Slow", BuiltinType.Int64, v -> v.valueSupplier(() -> {
                    try {
                        Thread.sleep(5); // a slow device: one worker serves both sessions
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Variant.of(sequence.incrementAndGet());
                }))
                .build();
        try (HostileServer server = HostileServer.start(b -> b.nodeManager(plant).requests(1, 1, 4))) {
            RequestStatistics statistics = server.server().statistics().requests();
            long rejectedBefore = statistics.rejected(RejectReason.TOO_BUSY);
            ReadValueId[] slow = {new ReadValueId(plant.nodeId("Slow"), AttributeIds.Value, null, QualifiedName.NULL)};
            UaTcpClientChannel flooder = server.connect();
            UaTcpClientChannel polite = server.connect();
            NodeId flooding = TestSessions.open(flooder, server.endpointUrl());
            NodeId reading = TestSessions.open(polite, server.endpointUrl());
            AtomicBoolean politeDone = new AtomicBoolean();
            AtomicLong flooderRefused = new AtomicLong();
            Thread flood = new Thread(() -> {
                while (!politeDone.get()) { // waves of 40 Reads into a queue of 4, until the polite session is done
                    List<CompletableFuture<ReadResponse>> wave = new ArrayList<>();
                    for (int i = 0; i < 40; i++) {
                        wave.add(flooder.request(new ReadRequest(TestSessions.header(flooding), 0,
                                TimestampsToReturn.Neither, slow), ReadResponse.class));
                    }
                    for (CompletableFuture<ReadResponse> read : wave) {
                        read.handle((r, e) -> null).join();
                        if (ServiceCalls.serviceResult(read) == StatusCodes.BadServerTooBusy) {
                            flooderRefused.incrementAndGet();
                        }
                    }
                }
            }, "hostile-flooder");
            flood.start();
            try {
                HostileServer.await("the flood filled the queue", () -> flooderRefused.get() > 0);
                long previous = 0;
                for (int i = 0; i < POLITE_READS; i++) {
                    CompletableFuture<ReadResponse> read = polite.request(new ReadRequest(TestSessions.header(reading),
                            0, TimestampsToReturn.Neither, slow), ReadResponse.class);
                    read.handle((r, e) -> null).get(30, TimeUnit.SECONDS);

                    assertThat(ServiceCalls.serviceResult(read)).as("polite Read %d", i).isEqualTo(StatusCodes.Good);
                    long served = (Long) read.join().results()[0].value().value();
                    assertThat(served).as("served after the previous polite Read").isGreaterThan(previous);
                    previous = served;
                }
            } finally {
                politeDone.set(true);
                flood.join(30_000);
            }
            assertThat(flooderRefused.get()).isPositive();
            assertThat(statistics.rejected(RejectReason.TOO_BUSY) - rejectedBefore).isEqualTo(flooderRefused.get());
            flooder.close().get(10, TimeUnit.SECONDS);
            polite.close().get(10, TimeUnit.SECONDS);
        }
    }
}
