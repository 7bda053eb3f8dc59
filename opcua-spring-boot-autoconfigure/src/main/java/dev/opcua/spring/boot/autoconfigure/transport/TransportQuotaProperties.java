package dev.opcua.spring.boot.autoconfigure.transport;

import java.time.Duration;
import org.springframework.util.unit.DataSize;

/**
 * The message, chunk and decoding limits of UA TCP and secure conversation (the stack's
 * TransportQuotas, Part 6, 7.1.2) that both ends configure alike: {@code opcua.server.transport.*} and
 * {@code opcua.client.connections.<name>.transport.*}. Defaults are {@code TransportQuotas.DEFAULT}'s.
 */
public class TransportQuotaProperties {

    /** Largest message body sent or accepted, summed over its chunks (MaxMessageSize). */
    private DataSize maxMessageSize = DataSize.ofMegabytes(2);

    /** Largest chunk sent or received (MaxBufferSize, offered in Hello/Acknowledge); at least 8192 bytes. */
    private DataSize maxBufferSize = DataSize.ofBytes(65_535);

    /** Most chunks in one message; 0 derives it from the message and buffer sizes. */
    private int maxChunkCount = 0;

    /** Most UTF-8 bytes in one decoded String (MaxStringLength). */
    private int maxStringLength = 65_535;

    /** Most bytes in one decoded ByteString (MaxByteStringLength). */
    private DataSize maxByteStringLength = DataSize.ofMegabytes(1);

    /** Most elements in one decoded array (MaxArrayLength). */
    private int maxArrayLength = 65_535;

    /** Most levels of nested values the decoder accepts. */
    private int maxEncodingNestingLevels = 200;

    /**
     * Security token lifetime (SecurityTokenLifetime): the longest a server grants, the one a client asks
     * for and renews before it ends.
     */
    private Duration securityTokenLifetime = Duration.ofHours(1);

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
