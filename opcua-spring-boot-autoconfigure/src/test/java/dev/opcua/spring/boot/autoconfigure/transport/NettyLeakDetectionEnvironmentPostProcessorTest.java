package dev.opcua.spring.boot.autoconfigure.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.util.ResourceLeakDetector;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class NettyLeakDetectionEnvironmentPostProcessorTest {

    private final ResourceLeakDetector.Level before = ResourceLeakDetector.getLevel();

    @AfterEach
    void restore() {
        ResourceLeakDetector.setLevel(before);
    }

    @Test
    void turns_the_detector_off_unless_configured_otherwise() {
        assertThat(NettyLeakDetectionEnvironmentPostProcessor.apply(new MockEnvironment(), name -> null))
                .isEqualTo(ResourceLeakDetector.Level.DISABLED);
        assertThat(ResourceLeakDetector.getLevel()).isEqualTo(ResourceLeakDetector.Level.DISABLED);

        MockEnvironment simple = new MockEnvironment().withProperty("opcua.netty.leak-detection", "Simple");
        assertThat(NettyLeakDetectionEnvironmentPostProcessor.apply(simple, name -> null))
                .isEqualTo(ResourceLeakDetector.Level.SIMPLE);
        assertThat(ResourceLeakDetector.getLevel()).isEqualTo(ResourceLeakDetector.Level.SIMPLE);
    }

    @Test
    void leaves_the_level_to_the_jvm_property_when_one_is_given() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        for (String jvm : new String[] {"io.netty.leakDetection.level", "io.netty.leakDetectionLevel"}) {
            Map<String, String> system = Map.of(jvm, "paranoid");
            assertThat(NettyLeakDetectionEnvironmentPostProcessor.apply(new MockEnvironment(), system::get)).isNull();
            assertThat(ResourceLeakDetector.getLevel()).isEqualTo(ResourceLeakDetector.Level.PARANOID);
        }
    }

    @Test
    void a_value_that_is_no_level_stops_the_start_naming_the_key_and_the_levels() {
        MockEnvironment wrong = new MockEnvironment().withProperty("opcua.netty.leak-detection", "off");
        assertThatThrownBy(() -> NettyLeakDetectionEnvironmentPostProcessor.apply(wrong, name -> null))
                .isInstanceOf(InvalidOpcUaTransportPropertyException.class)
                .hasMessage("opcua.netty.leak-detection=off: not a level of Netty's leak detector; allowed: disabled,"
                        + " simple, advanced, paranoid");
    }
}
