package dev.opcua.stack.server.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DataValueBytesTest {

    private static final DateTime SOURCE = DateTime.ofEpochMillis(1_700_000_000_000L);
    private static final DateTime SERVER = DateTime.ofEpochMillis(1_700_000_000_250L);

    private final DataValueBytes bytes = new DataValueBytes();

    @Test
    void a_value_comes_back_with_its_status_both_timestamps_and_their_picoseconds() {
        DataValue value = DataValue.of(Variant.ofDouble(21.5), StatusCode.UNCERTAIN, SOURCE, 1234, SERVER, 9999);

        assertThat(DataValueBytes.decode(bytes.encode(value))).isEqualTo(value);
    }

    @Test
    void the_reused_buffer_gives_each_value_exactly_its_own_bytes() {
        DataValue longer = DataValue.of(Variant.ofString("a string longer than a double"), StatusCode.GOOD, SOURCE,
                SERVER);
        DataValue shorter = DataValue.of(Variant.ofInt32(7), StatusCode.GOOD, SOURCE, SERVER);

        byte[] first = bytes.encode(longer);
        byte[] second = bytes.encode(shorter);

        assertThat(second).hasSizeLessThan(first.length);
        assertThat(DataValueBytes.decode(first)).isEqualTo(longer);
        assertThat(DataValueBytes.decode(second)).isEqualTo(shorter);
    }

    @Test
    void a_value_longer_than_a_peer_may_send_is_kept_whole() {
        char[] text = new char[200_000]; // beyond the 65,535 characters EncodingLimits.DEFAULT accepts from a peer
        Arrays.fill(text, 'x');
        DataValue value = DataValue.of(Variant.ofString(new String(text)), StatusCode.GOOD, SOURCE, SERVER);

        assertThat(DataValueBytes.decode(bytes.encode(value))).isEqualTo(value);
    }
}
