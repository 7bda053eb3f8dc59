package dev.opcua.stack.client.transport;

import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * RequestHeaders (Part 4, 7.32): the session's authentication token (null without a session), the
 * current time to the millisecond, a process-wide request handle counter (IntegerId: never 0), no
 * diagnostics.
 */
public final class RequestHeaders {

    private static final AtomicInteger HANDLES = new AtomicInteger();

    private RequestHeaders() {
    }

    /** A header without session and with the given timeoutHint in milliseconds (0 = none). */
    public static RequestHeader create(long timeoutHintMillis) {
        return create(NodeId.NULL, timeoutHintMillis);
    }

    /** A header of a session: its authentication token, the time, a new handle and the timeoutHint (0 = none). */
    public static RequestHeader create(NodeId authenticationToken, long timeoutHintMillis) {
        return create(authenticationToken, timeoutHintMillis, ExtensionObject.NULL);
    }

    /** As {@link #create(NodeId, long)} with an AdditionalHeader (Part 4, 7.32), e.g. ECDHPolicyUri (Part 6, 6.8.2). */
    public static RequestHeader create(NodeId authenticationToken, long timeoutHintMillis,
            ExtensionObject additionalHeader) {
        return new RequestHeader(authenticationToken, timestamp(), nextHandle(), 0, null, timeoutHintMillis,
                additionalHeader);
    }

    /**
     * The timestamp of a request header (Part 4, 7.32: when the client sent the request, used by the
     * server for diagnostics and its timeoutHint): the current time to the millisecond, one DateTime
     * per millisecond however many requests share it.
     */
    public static DateTime timestamp() {
        return DateTime.currentMillisecond();
    }

    /** The next request handle: a UInt32 counter that skips 0 and wraps. */
    public static long nextHandle() {
        int handle = HANDLES.incrementAndGet();
        if (handle == 0) {
            handle = HANDLES.incrementAndGet();
        }
        return Integer.toUnsignedLong(handle);
    }

    /** The timeoutHint of a request's header in milliseconds; 0 when it has none or no header. */
    public static long timeoutHint(UaStructure request) {
        if (request instanceof UaRequestMessage) {
            RequestHeader header = ((UaRequestMessage) request).requestHeader();
            return header == null ? 0 : header.timeoutHint();
        }
        return 0;
    }
}
