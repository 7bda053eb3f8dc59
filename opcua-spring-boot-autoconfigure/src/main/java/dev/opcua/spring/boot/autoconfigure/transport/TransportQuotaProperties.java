package dev.opcua.spring.boot.autoconfigure.transport;

import dev.opcua.spring.boot.autoconfigure.validation.DataSizeRange;
import dev.opcua.spring.boot.autoconfigure.validation.PositiveDuration;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.stack.core.config.TransportQuotas;
import java.time.Duration;
import java.util.Map;
import org.springframework.util.unit.DataSize;

/**
 * The message, chunk and decoding limits of UA TCP and secure conversation (the stack's
 * TransportQuotas, Part 6, 7.1.2) that both ends configure alike: {@code opcua.server.transport.*} and
 * {@code opcua.client.connections.<name>.transport.*}. Defaults are {@code TransportQuotas.DEFAULT}'s.
 */
public class TransportQuotaProperties {

    /**
     * The property under the group's prefix of each setting of the stack's TransportQuotas that both ends
     * configure, to report an {@code InvalidSettingException} against the user's key.
     */
    public static final Map<String, String> STACK_SETTING_KEYS = Map.of(
            "transportQuotas.maxMessageSize", "transport.max-message-size",
            "transportQuotas.maxBufferSize", "transport.max-buffer-size",
            "transportQuotas.maxChunkCount", "transport.max-chunk-count",
            "transportQuotas.maxStringLength", "transport.max-string-length",
            "transportQuotas.maxByteStringLength", "transport.max-byte-string-length",
            "transportQuotas.maxArrayLength", "transport.max-array-length",
            "transportQuotas.maxEncodingNestingLevels", "transport.max-encoding-nesting-levels",
            "transportQuotas.securityTokenLifetime", "transport.security-token-lifetime");

    /** Largest message body sent or accepted, summed over its chunks (MaxMessageSize). */
    @DataSizeRange
    private DataSize maxMessageSize = DataSize.ofMegabytes(2);

    /** Largest chunk sent or received (MaxBufferSize, offered in Hello/Acknowledge); at least 8192 bytes. */
    @DataSizeRange(min = 8192, message = "must be a size of {min} (the smallest chunk of UA secure conversation,"
            + " Part 6, 7.1.2.3) to {max} bytes")
    private DataSize maxBufferSize = DataSize.ofBytes(65_535);

    /** Most chunks in one message; 0 derives it from the message and buffer sizes. */
    @PositiveOrZero
    private int maxChunkCount = 0;

    /** Most UTF-8 bytes in one decoded String (MaxStringLength). */
    @Positive
    private int maxStringLength = 65_535;

    /** Most bytes in one decoded ByteString (MaxByteStringLength). */
    @DataSizeRange
    private DataSize maxByteStringLength = DataSize.ofMegabytes(1);

    /** Most elements in one decoded array (MaxArrayLength). */
    @Positive
    private int maxArrayLength = 65_535;

    /** Most levels of nested values the decoder accepts. */
    @Positive
    private int maxEncodingNestingLevels = 200;

    /**
     * Security token lifetime (SecurityTokenLifetime): the longest a server grants, the one a client asks
     * for and renews before it ends.
     */
    @PositiveDuration
    private Duration securityTokenLifetime = Duration.ofHours(1);

    /**
     * Sets these quotas on {@code builder}; a size that does not fit the stack's int is reported by
     * {@code checks} under its key.
     */
    public TransportQuotas.Builder applyTo(TransportQuotas.Builder builder, PropertyChecks checks) {
        return builder.maxMessageSize(checks.bytes("transport.max-message-size", maxMessageSize))
                .maxBufferSize(checks.bytes("transport.max-buffer-size", maxBufferSize))
                .maxChunkCount(maxChunkCount)
                .maxStringLength(maxStringLength)
                .maxByteStringLength(checks.bytes("transport.max-byte-string-length", maxByteStringLength))
                .maxArrayLength(maxArrayLength)
                .maxEncodingNestingLevels(maxEncodingNestingLevels)
                .securityTokenLifetime(securityTokenLifetime);
    }

    public DataSize getMaxMessageSize() {
        return maxMessageSize;
    }

    public void setMaxMessageSize(DataSize maxMessageSize) {
        this.maxMessageSize = maxMessageSize;
    }

    public DataSize getMaxBufferSize() {
        return maxBufferSize;
    }

    public void setMaxBufferSize(DataSize maxBufferSize) {
        this.maxBufferSize = maxBufferSize;
    }

    public int getMaxChunkCount() {
        return maxChunkCount;
    }

    public void setMaxChunkCount(int maxChunkCount) {
        this.maxChunkCount = maxChunkCount;
    }

    public int getMaxStringLength() {
        return maxStringLength;
    }

    public void setMaxStringLength(int maxStringLength) {
        this.maxStringLength = maxStringLength;
    }

    public DataSize getMaxByteStringLength() {
        return maxByteStringLength;
    }

    public void setMaxByteStringLength(DataSize maxByteStringLength) {
        this.maxByteStringLength = maxByteStringLength;
    }

    public int getMaxArrayLength() {
        return maxArrayLength;
    }

    public void setMaxArrayLength(int maxArrayLength) {
        this.maxArrayLength = maxArrayLength;
    }

    public int getMaxEncodingNestingLevels() {
        return maxEncodingNestingLevels;
    }

    public void setMaxEncodingNestingLevels(int maxEncodingNestingLevels) {
        this.maxEncodingNestingLevels = maxEncodingNestingLevels;
    }

    public Duration getSecurityTokenLifetime() {
        return securityTokenLifetime;
    }

    public void setSecurityTokenLifetime(Duration securityTokenLifetime) {
        this.securityTokenLifetime = securityTokenLifetime;
    }
}
