package dev.opcua.stack.client.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.DataChangeTrigger;
import dev.opcua.stack.core.types.enumerated.DeadbandType;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.DataChangeFilter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ResumeToken}: its text form reads back to the same token; bad text is refused naming the line. */
class ResumeTokenTest {

    private static final ResumeToken TOKEN = new ResumeToken(4_000_000_001L,
            SubscriptionParameters.ofInterval(250).withCounts(300, 10).withPriority(7).durable(Duration.ofHours(3)),
            500, 240, 8, 2, 4711, List.of(
                    new ResumeToken.Item(1, NodeId.string(2, "Line 1,Speed;x=%"), 13, null, 100, 1000, true, null,
                            MonitoringMode.Reporting),
                    new ResumeToken.Item(7, NodeId.numeric(3, 42), 13, "1:2,4", 0, 1, false,
                            new DataChangeFilter(DataChangeTrigger.StatusValueTimestamp, DeadbandType.Absolute.value(),
                                    0.5), MonitoringMode.Sampling)));

    @Test
    void the_text_form_reads_back_to_the_same_token() {
        ResumeToken read = ResumeToken.decode(TOKEN.encode());

        assertThat(read).usingRecursiveComparison().isEqualTo(TOKEN);
        assertThat(read.parameters().durableLifetimeHours()).isEqualTo(3);
        assertThat(read.items().get(1).request((item, value) -> { }).indexRange()).isEqualTo("1:2,4");
    }

    @Test
    void malformed_text_is_refused_naming_the_line() {
        String text = TOKEN.encode().replace("delivered=4711", "delivered=soon");

        assertThatThrownBy(() -> ResumeToken.decode(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delivered=soon");
        assertThatThrownBy(() -> ResumeToken.decode("hello")).hasMessageContaining("not a resume token");
    }

    @Test
    void a_token_without_a_subscription_id_or_with_a_handle_twice_is_refused() {
        assertThatThrownBy(() -> new ResumeToken(0, SubscriptionParameters.defaults(), 0, 0, 0, 0, 0, List.of()))
                .hasMessageContaining("subscriptionId");
        ResumeToken.Item item = TOKEN.items().get(0);
        assertThatThrownBy(() -> new ResumeToken(1, SubscriptionParameters.defaults(), 0, 0, 0, 0, 0,
                List.of(item, item))).hasMessageContaining("client handles must be unique");
    }
}
