package dev.opcua.stack.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.server.transport.uasc.TransportRejection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The outbound high-water mark's policy on one connection, with EmbeddedChannel's clock. */
class WriteStallGuardTest {

    private final ServerChannelCounters counters = new ServerChannelCounters();
    private final EmbeddedChannel channel = new EmbeddedChannel(new WriteStallGuard(Duration.ofSeconds(5), 1000, counters));

    WriteStallGuardTest() {
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(50, 100));
    }

    @Test
    void over_the_high_mark_reading_stops_and_resumes_below_the_low_mark() {
        channel.write(bytes(150)); // written, not flushed: queued
        assertThat(channel.isWritable()).isFalse();
        assertThat(channel.config().isAutoRead()).isFalse();

        channel.flush();
        assertThat(channel.isWritable()).isTrue();
        assertThat(channel.config().isAutoRead()).isTrue();
        channel.advanceTimeBy(10, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();

        assertThat(channel.isOpen()).as("the stall timer stopped when the queue drained").isTrue();
        assertThat(counters.rejected(TransportRejection.WRITE_STALL)).isZero();
        channel.finishAndReleaseAll();
    }

    @Test
    void a_queue_still_over_the_high_mark_when_the_stall_timeout_passes_closes_the_connection() {
        channel.write(bytes(150));
        channel.advanceTimeBy(4, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isOpen()).isTrue();

        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();

        assertThat(channel.isOpen()).isFalse();
        assertThat(counters.rejected(TransportRejection.WRITE_STALL)).isEqualTo(1);
        channel.finishAndReleaseAll();
    }

    @Test
    void a_chunk_that_would_take_the_queue_past_the_write_buffer_limit_closes_the_connection_at_once() {
        // Netty counts each queued chunk with its bookkeeping (96 bytes): 2 x 396 bytes fit under 1000
        ByteBuf first = bytes(300);
        ByteBuf second = bytes(300);
        ByteBuf third = bytes(300);
        channel.write(first);
        channel.write(second);
        assertThat(channel.isOpen()).isTrue();

        ChannelFuture over = channel.write(third);

        assertThat(channel.isOpen()).isFalse();
        assertThat(over.isSuccess()).isFalse();
        assertThat(third.refCnt()).as("the refused chunk is released").isZero();
        assertThat(first.refCnt()).as("the queued chunks are released with the close").isZero();
        assertThat(second.refCnt()).isZero();
        assertThat(counters.rejected(TransportRejection.WRITE_BUFFER_LIMIT)).isEqualTo(1);
        assertThat(counters.rejected(TransportRejection.WRITE_STALL)).isZero();
        channel.finishAndReleaseAll();
    }

    private static ByteBuf bytes(int size) {
        return Unpooled.buffer(size).writeZero(size);
    }
}
