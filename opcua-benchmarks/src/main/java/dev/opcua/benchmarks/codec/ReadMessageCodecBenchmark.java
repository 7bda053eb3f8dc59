package dev.opcua.benchmarks.codec;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.ResponseHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encoding and decoding of ReadRequest and ReadResponse messages (type id + body, as the secure
 * channel layer will do per request), with 1 or 100 nodes / Double DataValues.
 *
 * <p>Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the allocated bytes per operation,
 * the primary metric (DESIGN.md section 8). Encoding reuses one pooled direct buffer, as a worker
 * thread will; {@code encodeReadRequestIntoFreshPooledBuffer} also acquires and releases the buffer.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class ReadMessageCodecBenchmark {

    @Param({"1", "100"})
    public int nodes;

    private final CodecRegistry registry = CodecRegistry.standard();
    private final UaEncoder encoder = new UaEncoder(registry);
    private final UaDecoder decoder = new UaDecoder(registry, EncodingLimits.DEFAULT);

    private ReadRequest request;
    private ReadResponse response;
    private ByteBuf scratch;
    private ByteBuf encodedRequest;
    private ByteBuf encodedResponse;

    @Setup(Level.Trial)
    public void setUp() {
        request = readRequest(nodes);
        response = readResponse(nodes);
        scratch = PooledByteBufAllocator.DEFAULT.directBuffer(64 * 1024);
        encodedRequest = encode(request);
        encodedResponse = encode(response);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        scratch.release();
        encodedRequest.release();
        encodedResponse.release();
    }

    private ByteBuf encode(UaStructure message) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(64 * 1024);
        encoder.setBuffer(buf).writeMessage(message);
        return buf;
    }

    static ReadRequest readRequest(int nodes) {
        RequestHeader header = new RequestHeader(NodeId.numeric(1, 123_456_789L), DateTime.now(), 42L, 0L, null,
                10_000L, ExtensionObject.NULL);
        ReadValueId[] ids = new ReadValueId[nodes];
        for (int i = 0; i < nodes; i++) {
            ids[i] = new ReadValueId(NodeId.string(2, "Var." + i), AttributeIds.Value, null, QualifiedName.NULL);
        }
        return new ReadRequest(header, 0.0, TimestampsToReturn.Both, ids);
    }

    static ReadResponse readResponse(int nodes) {
        DateTime now = DateTime.now();
        ResponseHeader header = new ResponseHeader(now, 42L, StatusCode.GOOD, DiagnosticInfo.NULL, null,
                ExtensionObject.NULL);
        DataValue[] results = new DataValue[nodes];
        for (int i = 0; i < nodes; i++) {
            results[i] = DataValue.of(Variant.ofDouble(i * 1.5), StatusCode.GOOD, now, now);
        }
        return new ReadResponse(header, results, null);
    }

    @Benchmark
    public ByteBuf encodeReadRequest() {
        scratch.clear();
        encoder.setBuffer(scratch).writeMessage(request);
        return scratch;
    }

    @Benchmark
    public int encodeReadRequestIntoFreshPooledBuffer() {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(256);
        try {
            encoder.setBuffer(buf).writeMessage(request);
            return buf.readableBytes();
        } finally {
            buf.release();
        }
    }

    @Benchmark
    public Object decodeReadRequest() {
        encodedRequest.readerIndex(0);
        return decoder.setBuffer(encodedRequest).readMessage();
    }

    @Benchmark
    public ByteBuf encodeReadResponse() {
        scratch.clear();
        encoder.setBuffer(scratch).writeMessage(response);
        return scratch;
    }

    @Benchmark
    public Object decodeReadResponse() {
        encodedResponse.readerIndex(0);
        return decoder.setBuffer(encodedResponse).readMessage();
    }
}
