package dev.opcua.stack.core.config;

import dev.opcua.stack.core.encoding.EncodingLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * Limits and timers of the UA TCP transport and secure channels, for the server and the client end
 * (Part 6, 7.1.2.3 and 7.1.2.4 for the buffer and message limits, Part 6, 7.1.3 for the Hello
 * timeout, Part 4, 5.5.2 for the token lifetime). Build with {@link #builder()}; every value not set
 * keeps its default.
 *
 * <p>Rules checked on construction, each failure an {@link InvalidSettingException} for the setting
 * {@code transportQuotas.<component>} with the value and what is allowed (a
 * {@link NullPointerException} for a missing duration):
 * <ul>
 *   <li>every duration is positive; {@code securityTokenLifetime} also fits the UInt32 milliseconds
 *       of RequestedLifetime;</li>
 *   <li>{@code maxBufferSize} is at least 8192, the UASC minimum (Part 6, 6.7.1 and 7.1.2.3);</li>
 *   <li>{@code maxMessageSize} is at least {@code maxBufferSize}, so that a message may always fill one
 *       whole chunk. There is no "0 = unlimited" here: a server bounds what one peer can make it
 *       buffer;</li>
 *   <li>{@code maxChunkCount} is 0 (derived, see {@link #effectiveMaxChunkCount()}) or positive;</li>
 *   <li>the decoder limits, {@code maxConnections} and {@code writeBufferHighWaterMark} are positive;</li>
 *   <li>{@code writeBufferLimit} is at least {@code writeBufferHighWaterMark}.</li>
 * </ul>
 *
 * @param operationTimeout how long a client waits for a response
 * @param maxMessageSize most bytes of one message body, summed over its chunks (MaxMessageSize of
 *        HEL and ACK)
 * @param maxBufferSize largest chunk this end sends or receives (ReceiveBufferSize and
 *        SendBufferSize of HEL and ACK)
 * @param maxChunkCount most chunks in one message; 0 derives it from the sizes
 * @param maxStringLength most UTF-8 bytes in one decoded String
 * @param maxByteStringLength most bytes in one decoded ByteString
 * @param maxArrayLength most elements in one decoded array
 * @param maxEncodingNestingLevels most levels of nested values the decoder accepts
 * @param channelLifetime how long a server keeps a secure channel whose socket dropped, so that the
 *        client can reconnect to it
 * @param helloTimeout how long a server waits for the Hello on a new socket (Part 6, 7.1.3: the
 *        default shall not exceed two minutes), and then as long for the OpenSecureChannel; a socket
 *        that lets it pass is answered ERR BadTimeout and closed
 * @param securityTokenLifetime lifetime a client requests for a security token, and the most a
 *        server grants
 * @param maxConnections most sockets a server keeps open at once
 * @param messageReceiveTimeout how long a server waits for the rest of a message it has begun to
 *        receive (a partial chunk, or the further chunks of a multi-chunk request) before it answers
 *        ERR BadTimeout and closes the connection: a peer that trickles bytes cannot hold a connection
 *        and its buffers for ever
 * @param writeBufferHighWaterMark bytes a server queues for one connection's socket before it stops
 *        reading that connection's requests (Netty's WriteBufferWaterMark; the low mark is half); a
 *        peer that does not read its responses cannot make the server buffer without bound
 * @param writeStallTimeout how long a connection's outbound queue may stay above the high-water
 *        mark before the server closes the connection
 * @param writeBufferLimit most bytes a server queues for one connection's socket: a response chunk
 *        that would take the queue past it closes the connection at once (the responses admitted
 *        before reading stopped cannot pile up past it), so it is at least the high-water mark
 */
public record TransportQuotas(
        Duration operationTimeout,
        int maxMessageSize,
        int maxBufferSize,
        int maxChunkCount,
        int maxStringLength,
        int maxByteStringLength,
        int maxArrayLength,
        int maxEncodingNestingLevels,
        Duration channelLifetime,
        Duration helloTimeout,
        Duration securityTokenLifetime,
        int maxConnections,
        Duration messageReceiveTimeout,
        int writeBufferHighWaterMark,
        Duration writeStallTimeout,
        int writeBufferLimit) {

    /** Smallest chunk size UASC works with (Part 6, 6.7.1 and 7.1.2.3). */
    public static final int MIN_BUFFER_SIZE = 8192;

    /**
     * Bytes of a MSG chunk that are not body under SecurityPolicy None: the 12-byte message header,
     * the 4-byte TokenId and the 8-byte sequence header (Part 6, 6.7.2).
     */
    public static final int CHUNK_OVERHEAD = 24;

    /** Largest security token lifetime: RequestedLifetime is a UInt32 count of milliseconds. */
    private static final long MAX_TOKEN_LIFETIME_MILLIS = 0xFFFF_FFFFL;

    /** The defaults listed on {@link Builder}. */
    public static final TransportQuotas DEFAULT = new TransportQuotas(
            Duration.ofSeconds(120),
            2_097_152,
            65_535,
            0,
            65_535,
            1 << 20,
            65_535,
            200,
            Duration.ofSeconds(30),
            Duration.ofSeconds(10),
            Duration.ofHours(1),
            1000,
            Duration.ofSeconds(60),
            4 << 20,
            Duration.ofSeconds(30),
            32 << 20);

    public TransportQuotas {
        requirePositive("operationTimeout", operationTimeout);
        requirePositive("channelLifetime", channelLifetime);
        requirePositive("helloTimeout", helloTimeout);
        requirePositive("securityTokenLifetime", securityTokenLifetime);
        if (securityTokenLifetime.compareTo(Duration.ofMillis(MAX_TOKEN_LIFETIME_MILLIS)) > 0) {
            throw invalid("securityTokenLifetime", securityTokenLifetime, "must be at most "
                    + MAX_TOKEN_LIFETIME_MILLIS + " ms (UInt32 RequestedLifetime, Part 4, 5.5.2)");
        }
        if (maxBufferSize < MIN_BUFFER_SIZE) {
            throw invalid("maxBufferSize", maxBufferSize,
                    "must be at least " + MIN_BUFFER_SIZE + " bytes (Part 6, 7.1.2.3)");
        }
        if (maxMessageSize < maxBufferSize) {
            throw invalid("maxMessageSize", maxMessageSize,
                    "must be at least maxBufferSize (" + maxBufferSize + " bytes)");
        }
        if (maxChunkCount < 0) {
            throw invalid("maxChunkCount", maxChunkCount, "must be 0 (derived from the sizes) or positive");
        }
        requirePositive("maxStringLength", maxStringLength);
        requirePositive("maxByteStringLength", maxByteStringLength);
        requirePositive("maxArrayLength", maxArrayLength);
        requirePositive("maxEncodingNestingLevels", maxEncodingNestingLevels);
        requirePositive("maxConnections", maxConnections);
        requirePositive("messageReceiveTimeout", messageReceiveTimeout);
        requirePositive("writeBufferHighWaterMark", writeBufferHighWaterMark);
        requirePositive("writeStallTimeout", writeStallTimeout);
        if (writeBufferLimit < writeBufferHighWaterMark) {
            throw invalid("writeBufferLimit", writeBufferLimit,
                    "must be at least writeBufferHighWaterMark (" + writeBufferHighWaterMark + " bytes)");
        }
    }

    /**
     * The chunk count this end enforces and advertises: {@code maxChunkCount} when set, otherwise
     * enough chunks of {@code maxBufferSize} to carry {@code maxMessageSize} plus one, the spare
     * covering a last chunk that a sender did not fill.
     */
    public int effectiveMaxChunkCount() {
        if (maxChunkCount > 0) {
            return maxChunkCount;
        }
        long bodyPerChunk = maxBufferSize - CHUNK_OVERHEAD;
        // long: maxMessageSize + bodyPerChunk overflows an int for sizes near 2 GiB
        return (int) ((maxMessageSize + bodyPerChunk - 1) / bodyPerChunk + 1);
    }

    /** The limits a decoder of this channel enforces; a new value on each call, callers keep it. */
    public EncodingLimits encodingLimits() {
        return new EncodingLimits(maxStringLength, maxByteStringLength, maxArrayLength, maxEncodingNestingLevels);
    }

    /** A builder preset with the {@link #DEFAULT} values. */
    public static Builder builder() {
        return new Builder(DEFAULT);
    }

    /** A builder preset with these values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    private static void requirePositive(String name, Duration value) {
        Objects.requireNonNull(value, () -> name + " must not be null");
        if (value.isNegative() || value.isZero()) {
            throw invalid(name, value, "must be positive");
        }
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw invalid(name, value, "must be greater than 0");
        }
    }

    private static InvalidSettingException invalid(String name, Object value, String rule) {
        return new InvalidSettingException("transportQuotas." + name, value, rule);
    }

    /**
     * Builds {@link TransportQuotas}; {@link #build()} validates. Defaults: operationTimeout 120 s,
     * maxMessageSize 2 MiB, maxBufferSize 65535, maxChunkCount 0 (derived), maxStringLength 65535,
     * maxByteStringLength 1 MiB, maxArrayLength 65535, maxEncodingNestingLevels 200, channelLifetime
     * 30 s, helloTimeout 10 s, securityTokenLifetime 1 h, maxConnections 1000, messageReceiveTimeout 60 s,
     * writeBufferHighWaterMark 4 MiB, writeStallTimeout 30 s, writeBufferLimit 32 MiB.
     */
    public static final class Builder {

        private Duration operationTimeout;
        private int maxMessageSize;
        private int maxBufferSize;
        private int maxChunkCount;
        private int maxStringLength;
        private int maxByteStringLength;
        private int maxArrayLength;
        private int maxEncodingNestingLevels;
        private Duration channelLifetime;
        private Duration helloTimeout;
        private Duration securityTokenLifetime;
        private int maxConnections;
        private Duration messageReceiveTimeout;
        private int writeBufferHighWaterMark;
        private Duration writeStallTimeout;
        private int writeBufferLimit;

        private Builder(TransportQuotas from) {
            operationTimeout = from.operationTimeout;
            maxMessageSize = from.maxMessageSize;
            maxBufferSize = from.maxBufferSize;
            maxChunkCount = from.maxChunkCount;
            maxStringLength = from.maxStringLength;
            maxByteStringLength = from.maxByteStringLength;
            maxArrayLength = from.maxArrayLength;
            maxEncodingNestingLevels = from.maxEncodingNestingLevels;
            channelLifetime = from.channelLifetime;
            helloTimeout = from.helloTimeout;
            securityTokenLifetime = from.securityTokenLifetime;
            maxConnections = from.maxConnections;
            messageReceiveTimeout = from.messageReceiveTimeout;
            writeBufferHighWaterMark = from.writeBufferHighWaterMark;
            writeStallTimeout = from.writeStallTimeout;
            writeBufferLimit = from.writeBufferLimit;
        }

        public Builder operationTimeout(Duration value) {
            operationTimeout = value;
            return this;
        }

        public Builder maxMessageSize(int value) {
            maxMessageSize = value;
            return this;
        }

        public Builder maxBufferSize(int value) {
            maxBufferSize = value;
            return this;
        }

        public Builder maxChunkCount(int value) {
            maxChunkCount = value;
            return this;
        }

        public Builder maxStringLength(int value) {
            maxStringLength = value;
            return this;
        }

        public Builder maxByteStringLength(int value) {
            maxByteStringLength = value;
            return this;
        }

        public Builder maxArrayLength(int value) {
            maxArrayLength = value;
            return this;
        }

        public Builder maxEncodingNestingLevels(int value) {
            maxEncodingNestingLevels = value;
            return this;
        }

        public Builder channelLifetime(Duration value) {
            channelLifetime = value;
            return this;
        }

        public Builder helloTimeout(Duration value) {
            helloTimeout = value;
            return this;
        }

        public Builder securityTokenLifetime(Duration value) {
            securityTokenLifetime = value;
            return this;
        }

        public Builder maxConnections(int value) {
            maxConnections = value;
            return this;
        }

        public Builder messageReceiveTimeout(Duration value) {
            messageReceiveTimeout = value;
            return this;
        }

        public Builder writeBufferHighWaterMark(int value) {
            writeBufferHighWaterMark = value;
            return this;
        }

        public Builder writeStallTimeout(Duration value) {
            writeStallTimeout = value;
            return this;
        }

        public Builder writeBufferLimit(int value) {
            writeBufferLimit = value;
            return this;
        }

        public TransportQuotas build() {
            return new TransportQuotas(operationTimeout, maxMessageSize, maxBufferSize, maxChunkCount,
                    maxStringLength, maxByteStringLength, maxArrayLength, maxEncodingNestingLevels,
                    channelLifetime, helloTimeout, securityTokenLifetime, maxConnections, messageReceiveTimeout,
                    writeBufferHighWaterMark, writeStallTimeout, writeBufferLimit);
        }
    }
}
