package dev.opcua.stack.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.encoding.EncodingLimits;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TransportQuotasTest {

    @Test
    void defaults() {
        TransportQuotas q = TransportQuotas.DEFAULT;
        assertThat(q.operationTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(q.maxMessageSize()).isEqualTo(2_097_152);
        assertThat(q.maxBufferSize()).isEqualTo(65_535);
        assertThat(q.maxChunkCount()).isZero();
        assertThat(q.maxStringLength()).isEqualTo(65_535);
        assertThat(q.maxByteStringLength()).isEqualTo(1_048_576);
        assertThat(q.maxArrayLength()).isEqualTo(65_535);
        assertThat(q.maxEncodingNestingLevels()).isEqualTo(200);
        assertThat(q.channelLifetime()).isEqualTo(Duration.ofSeconds(30));
        assertThat(q.helloTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(q.securityTokenLifetime()).isEqualTo(Duration.ofHours(1));
        assertThat(q.maxConnections()).isEqualTo(1000);
        assertThat(q.messageReceiveTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(q.writeBufferHighWaterMark()).isEqualTo(4 << 20);
        assertThat(q.writeStallTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(q.writeBufferLimit()).isEqualTo(32 << 20);
        assertThat(TransportQuotas.builder().build()).isEqualTo(q);
    }

    @Test
    void encoding_limits_carry_the_decoder_fields() {
        TransportQuotas q = TransportQuotas.builder()
                .maxStringLength(10).maxByteStringLength(20).maxArrayLength(30).maxEncodingNestingLevels(40)
                .build();
        assertThat(q.encodingLimits()).isEqualTo(new EncodingLimits(10, 20, 30, 40));
        assertThat(TransportQuotas.DEFAULT.encodingLimits()).isEqualTo(EncodingLimits.DEFAULT);
    }

    @Test
    void derived_chunk_count_covers_the_largest_message_plus_one() {
        // 2 MiB over 65511 body bytes per chunk (65535 - 24) is 32.01, so 33 chunks, plus the spare
        assertThat(TransportQuotas.DEFAULT.effectiveMaxChunkCount()).isEqualTo(34);
        TransportQuotas exact = TransportQuotas.builder().maxBufferSize(8192).maxMessageSize(4 * 8168).build();
        assertThat(exact.effectiveMaxChunkCount()).isEqualTo(5);
        assertThat(exact.toBuilder().maxMessageSize(4 * 8168 + 1).build().effectiveMaxChunkCount()).isEqualTo(6);
    }

    @Test
    void derived_chunk_count_does_not_overflow_near_two_gibibytes() {
        TransportQuotas q = TransportQuotas.builder().maxBufferSize(8192).maxMessageSize(Integer.MAX_VALUE).build();
        assertThat(q.effectiveMaxChunkCount()).isEqualTo(262_916);
    }

    @Test
    void explicit_chunk_count_wins() {
        assertThat(TransportQuotas.builder().maxChunkCount(5).build().effectiveMaxChunkCount()).isEqualTo(5);
    }

    @Test
    void builder_round_trip() {
        TransportQuotas q = TransportQuotas.builder()
                .operationTimeout(Duration.ofSeconds(5))
                .maxMessageSize(1_000_000)
                .maxBufferSize(16_384)
                .maxChunkCount(70)
                .maxStringLength(1)
                .maxByteStringLength(2)
                .maxArrayLength(3)
                .maxEncodingNestingLevels(4)
                .channelLifetime(Duration.ofMinutes(2))
                .helloTimeout(Duration.ofSeconds(3))
                .securityTokenLifetime(Duration.ofMinutes(10))
                .maxConnections(7)
                .messageReceiveTimeout(Duration.ofSeconds(6))
                .writeBufferHighWaterMark(100_000)
                .writeStallTimeout(Duration.ofSeconds(8))
                .writeBufferLimit(300_000)
                .build();
        assertThat(q).isEqualTo(new TransportQuotas(Duration.ofSeconds(5), 1_000_000, 16_384, 70, 1, 2, 3, 4,
                Duration.ofMinutes(2), Duration.ofSeconds(3), Duration.ofMinutes(10), 7, Duration.ofSeconds(6),
                100_000, Duration.ofSeconds(8), 300_000));
        assertThat(q.toBuilder().build()).isEqualTo(q);
        assertThat(q.toBuilder().maxConnections(8).build().maxConnections()).isEqualTo(8);
        assertThat(q.maxConnections()).isEqualTo(7);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                bad(b -> b.maxBufferSize(4096),
                        "transportQuotas.maxBufferSize must be at least 8192 bytes (Part 6, 7.1.2.3), was 4096"),
                bad(b -> b.maxMessageSize(65_534),
                        "transportQuotas.maxMessageSize must be at least maxBufferSize (65535 bytes), was 65534"),
                bad(b -> b.maxChunkCount(-1),
                        "transportQuotas.maxChunkCount must be 0 (derived from the sizes) or positive, was -1"),
                bad(b -> b.maxStringLength(0), "transportQuotas.maxStringLength must be greater than 0, was 0"),
                bad(b -> b.maxByteStringLength(-5),
                        "transportQuotas.maxByteStringLength must be greater than 0, was -5"),
                bad(b -> b.maxArrayLength(0), "transportQuotas.maxArrayLength must be greater than 0, was 0"),
                bad(b -> b.maxEncodingNestingLevels(0),
                        "transportQuotas.maxEncodingNestingLevels must be greater than 0, was 0"),
                bad(b -> b.maxConnections(0), "transportQuotas.maxConnections must be greater than 0, was 0"),
                bad(b -> b.operationTimeout(Duration.ZERO),
                        "transportQuotas.operationTimeout must be positive, was PT0S"),
                bad(b -> b.channelLifetime(Duration.ofSeconds(-1)),
                        "transportQuotas.channelLifetime must be positive, was PT-1S"),
                bad(b -> b.helloTimeout(Duration.ZERO), "transportQuotas.helloTimeout must be positive, was PT0S"),
                bad(b -> b.messageReceiveTimeout(Duration.ZERO),
                        "transportQuotas.messageReceiveTimeout must be positive, was PT0S"),
                bad(b -> b.writeStallTimeout(Duration.ofSeconds(-1)),
                        "transportQuotas.writeStallTimeout must be positive, was PT-1S"),
                bad(b -> b.writeBufferHighWaterMark(0),
                        "transportQuotas.writeBufferHighWaterMark must be greater than 0, was 0"),
                bad(b -> b.writeBufferLimit((4 << 20) - 1),
                        "transportQuotas.writeBufferLimit must be at least writeBufferHighWaterMark (4194304 bytes), "
                                + "was 4194303"),
                bad(b -> b.securityTokenLifetime(Duration.ZERO),
                        "transportQuotas.securityTokenLifetime must be positive, was PT0S"),
                bad(b -> b.securityTokenLifetime(Duration.ofMillis(0x1_0000_0000L)),
                        "transportQuotas.securityTokenLifetime must be at most 4294967295 ms "
                                + "(UInt32 RequestedLifetime, Part 4, 5.5.2), was PT1193H2M47.296S"));
    }

    private static Arguments bad(UnaryOperator<TransportQuotas.Builder> change, String message) {
        return Arguments.of(change, message);
    }

    @ParameterizedTest
    @MethodSource("invalid")
    void invalid_values_are_refused_naming_field_value_and_rule(UnaryOperator<TransportQuotas.Builder> change,
            String message) {
        assertThatThrownBy(() -> change.apply(TransportQuotas.builder()).build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(message).startsWith(e.setting() + " " + e.rule());
                    assertThat(message).endsWith(", was " + e.value());
                })
                .hasMessage(message);
    }

    @Test
    void missing_duration_is_refused_by_name() {
        assertThatThrownBy(() -> TransportQuotas.builder().helloTimeout(null).build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("helloTimeout must not be null");
    }

    @Test
    void boundary_values_are_accepted() {
        TransportQuotas q = TransportQuotas.builder()
                .maxBufferSize(8192).maxMessageSize(8192).maxChunkCount(0)
                .securityTokenLifetime(Duration.ofMillis(0xFFFF_FFFFL)).build();
        assertThat(q.effectiveMaxChunkCount()).isEqualTo(3);
    }
}
