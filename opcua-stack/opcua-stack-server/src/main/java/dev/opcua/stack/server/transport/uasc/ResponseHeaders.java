package dev.opcua.stack.server.transport.uasc;

import dev.opcua.stack.core.types.UaResponseMessage;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.ResponseHeader;
import dev.opcua.stack.core.types.structured.ServiceFault;

/**
 * Response headers and ServiceFaults as a server sends them (Part 4, 7.33 ResponseHeader and 7.34
 * ServiceFault): stamped with the current time, echoing the request's requestHandle, with no
 * diagnostics.
 */
public final class ResponseHeaders {

    private ResponseHeaders() {
    }

    /** A Good header for the request with {@code requestHandle}. */
    public static ResponseHeader good(long requestHandle) {
        return withStatus(requestHandle, StatusCode.GOOD);
    }

    /** A Good header carrying {@code additionalHeader} (Part 4, 7.33), e.g. the ECDHKey of Part 6, 6.8.2. */
    public static ResponseHeader good(long requestHandle, ExtensionObject additionalHeader) {
        return new ResponseHeader(DateTime.currentMillisecond(), requestHandle, StatusCode.GOOD, DiagnosticInfo.NULL,
                null, additionalHeader);
    }

    /** A header with {@code status} for the request with {@code requestHandle}. */
    public static ResponseHeader withStatus(long requestHandle, StatusCode status) {
        return new ResponseHeader(DateTime.currentMillisecond(), requestHandle, status, DiagnosticInfo.NULL, null,
                ExtensionObject.NULL);
    }

    /**
     * The ServiceFault that replaces a response whose serviceResult is Bad (Part 4, 7.34); the
     * requestHandle "should be set to what was provided in the RequestHeader even if these values were
     * not valid".
     */
    public static ServiceFault serviceFault(long requestHandle, int status) {
        return new ServiceFault(withStatus(requestHandle, StatusCode.of(status)));
    }

    /** The requestHandle in the header of a response, 0 when it has none. */
    public static long requestHandleOf(UaStructure response) {
        if (response instanceof UaResponseMessage message && message.responseHeader() != null) {
            return message.responseHeader().requestHandle();
        }
        return 0;
    }
}
