package dev.opcua.benchmarks.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.encoding.DefaultEncodingContext;
import org.eclipse.milo.opcua.stack.core.encoding.binary.OpcUaBinaryDecoder;
import org.eclipse.milo.opcua.stack.core.encoding.binary.OpcUaBinaryEncoder;
import org.eclipse.milo.opcua.stack.core.types.UaMessageType;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.RequestHeader;
import org.eclipse.milo.opcua.stack.core.types.structured.ResponseHeader;
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
 * The same messages and operations as {@link ReadMessageCodecBenchmark}, through Eclipse Milo 1.1.2's
 * binary encoder and decoder, so both stacks are compared in one run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class MiloReadMessageCodecBenchmark {

    @Param({"1", "100"})
    public int nodes;

    private final OpcUaBinaryEncoder encoder = new OpcUaBinaryEncoder(DefaultEncodingContext.INSTANCE);
    private final OpcUaBinaryDecoder decoder = new OpcUaBinaryDecoder(DefaultEncodingContext.INSTANCE);

    private ReadRequest request;
    private ReadResponse response;
    private ByteBuf scratch;
    private ByteBuf encodedRequest;
    private ByteBuf encodedResponse;

    @Setup(Level.Trial)
    public void setUp() {
        RequestHeader requestHeader = new RequestHeader(new NodeId(1, UInteger.valueOf(123_456_789L)), DateTime.now(),
                UInteger.valueOf(42), UInteger.valueOf(0), null, UInteger.valueOf(10_000), null);
        ReadValueId[] ids = new ReadValueId[nodes];
        for (int i = 0; i < nodes; i++) {
            ids[i] = new ReadValueId(new NodeId(2, "Var." + i), AttributeId.Value.uid(), null, QualifiedName.NULL_VALUE);
        }
        request = new ReadRequest(requestHeader, 0.0, TimestampsToReturn.Both, ids);

        DateTime now = DateTime.now();
        ResponseHeader responseHeader = new ResponseHeader(now, UInteger.valueOf(42), StatusCode.GOOD, null, null, null);
        DataValue[] results = new DataValue[nodes];
        for (int i = 0; i < nodes; i++) {
            results[i] = new DataValue(new Variant(i * 1.5), StatusCode.GOOD, now, now);
        }
        response = new ReadResponse(responseHeader, results, null);

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

    private ByteBuf encode(UaMessageType message) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(64 * 1024);
        encoder.setBuffer(buf).encodeMessage(null, message);
        return buf;
    }

    @Benchmark
    public ByteBuf encodeReadRequest() {
        scratch.clear();
        encoder.setBuffer(scratch).encodeMessage(null, request);
        return scratch;
    }

    @Benchmark
    public Object decodeReadRequest() {
        encodedRequest.readerIndex(0);
        return decoder.setBuffer(encodedRequest).decodeMessage(null);
    }

    @Benchmark
    public ByteBuf encodeReadResponse() {
        scratch.clear();
        encoder.setBuffer(scratch).encodeMessage(null, response);
        return scratch;
    }

    @Benchmark
    public Object decodeReadResponse() {
        encodedResponse.readerIndex(0);
        return decoder.setBuffer(encodedResponse).decodeMessage(null);
    }
}
