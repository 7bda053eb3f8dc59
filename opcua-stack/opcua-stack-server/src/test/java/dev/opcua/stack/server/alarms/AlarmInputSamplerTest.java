package dev.opcua.stack.server.alarms;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManagers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the sampler hands to the alarms of the InputNodes it read (Part 9, 5.8.2): changes only, each alarm apart. */
class AlarmInputSamplerTest {

    private static final NodeId SOURCE = NodeId.string(2, "Door");

    private final OffNormalAlarm door = alarm("Door.Open", NodeId.string(2, "Door.Contact"));
    private final OffNormalAlarm hatch = alarm("Hatch.Open", NodeId.string(2, "Hatch.Contact"));
    private final AlarmInputSampler sampler = new AlarmInputSampler(
            new NodeManagers(new NamespaceTable("urn:test:server")), List.of(door, hatch), Duration.ofMillis(100));

    @AfterEach
    void close() {
        sampler.close();
    }

    private static OffNormalAlarm alarm(String path, NodeId input) {
        OffNormalAlarm alarm = new OffNormalAlarm(ConditionIdentity.of(NodeId.string(3, path), SOURCE, "Door", path),
                input, NodeId.string(3, path + ".NormalValue"), Variant.ofBoolean(false), 100, 700, false);
        alarm.initialize();
        return alarm;
    }

    private static DataValue sample(boolean value, long time) {
        return DataValue.of(Variant.ofBoolean(value), StatusCode.GOOD, DateTime.ofEpochMillis(time), null);
    }

    @Test
    void a_value_read_again_unchanged_is_not_handed_to_the_alarm_a_changed_one_or_status_is() {
        DataValue first = sample(true, 1_000);
        sampler.apply(new DataValue[] {first, sample(false, 1_000)});
        assertThat(door.lastInput()).isSameAs(first);
        assertThat(door.isActive()).isTrue();

        sampler.apply(new DataValue[] {sample(true, 2_000), sample(false, 2_000)});
        assertThat(door.lastInput()).as("same value and status, a later source time").isSameAs(first);

        DataValue bad = DataValue.ofStatus(StatusCode.of(StatusCodes.BadCommunicationError));
        sampler.apply(new DataValue[] {bad, sample(false, 3_000)});
        assertThat(door.lastInput()).isSameAs(bad);
        assertThat(door.quality().value()).isEqualTo(StatusCodes.BadCommunicationError);

        DataValue normal = sample(false, 4_000);
        sampler.apply(new DataValue[] {normal, sample(false, 4_000)});
        assertThat(door.lastInput()).isSameAs(normal);
        assertThat(door.isActive()).isFalse();
    }

    @Test
    void an_alarm_that_fails_on_its_input_does_not_keep_the_others_from_theirs() {
        door.listener((condition, event, fields) -> {
            throw new IllegalStateException("listener failed");
        });
        DataValue hatchOpen = sample(true, 1_000);
        sampler.apply(new DataValue[] {sample(true, 1_000), hatchOpen});
        assertThat(hatch.lastInput()).isSameAs(hatchOpen);
        assertThat(hatch.isActive()).isTrue();
    }
}
