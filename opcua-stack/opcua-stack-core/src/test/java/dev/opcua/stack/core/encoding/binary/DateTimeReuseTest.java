package dev.opcua.stack.core.encoding.binary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A decoder hands out one DateTime instance for a timestamp that repeats among the last two it read. */
class DateTimeReuseTest {

    private static final long SERVER_TIME = 133_000_000_000_000_000L;

    @Test
    void values_with_their_own_source_time_share_one_server_time_instance_and_decode_equal() {
        List<DataValue> written = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            written.add(DataValue.of(Variant.ofDouble(i), StatusCode.GOOD, DateTime.ofTicks(SERVER_TIME - 10_000 * (i + 1)),
                    0, DateTime.ofTicks(SERVER_TIME), 0));
        }
        ByteBuf buf = Unpooled.buffer();
        UaEncoder encoder = new UaEncoder(CodecRegistry.standard(), buf);
        written.forEach(v -> encoder.writeDataValue("Value", v));
        UaDecoder decoder = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT).setBuffer(buf);
        List<DataValue> read = new ArrayList<>();
        for (int i = 0; i < written.size(); i++) {
            read.add(decoder.readDataValue("Value"));
        }

        assertThat(read).isEqualTo(written);
        for (int i = 1; i < read.size(); i++) {
            assertThat(read.get(i).serverTimestamp()).isSameAs(read.get(0).serverTimestamp());
            assertThat(read.get(i).sourceTimestamp()).isNotEqualTo(read.get(i - 1).sourceTimestamp());
        }
    }

    @Test
    void the_null_and_the_largest_times_decode_as_their_constants() {
        ByteBuf buf = Unpooled.buffer();
        buf.writeLongLE(0).writeLongLE(-5).writeLongLE(SERVER_TIME).writeLongLE(Long.MAX_VALUE).writeLongLE(0);
        UaDecoder decoder = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT).setBuffer(buf);
        assertThat(decoder.readDateTime("T")).isSameAs(DateTime.MIN_VALUE);
        assertThat(decoder.readDateTime("T")).isSameAs(DateTime.MIN_VALUE);
        assertThat(decoder.readDateTime("T").utcTicks()).isEqualTo(SERVER_TIME);
        assertThat(decoder.readDateTime("T")).isSameAs(DateTime.MAX_VALUE);
        assertThat(decoder.readDateTime("T")).isSameAs(DateTime.MIN_VALUE);
    }
}
