package dev.opcua.stack.server.hostile;

import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaResponseMessage;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Requests and outcomes the hostile tests share. */
final class ServiceCalls {

    private ServiceCalls() {
    }

    /** A CreateSession for an anonymous client over SecurityPolicy None, asking for {@code timeoutMillis}. */
    static CreateSessionRequest createSession(String endpointUrl, double timeoutMillis) {
        return new CreateSessionRequest(RequestHeaders.create(0),
                new ApplicationDescription("urn:test:hostile", null, LocalizedText.of("hostile client"),
                        ApplicationType.Client, null, null, null),
                null, endpointUrl, "hostile", ByteString.NULL, ByteString.NULL, timeoutMillis, 0);
    }

    /**
     * The service result of a completed call: the ServiceFault's status when it failed with one, else
     * the response header's; -1 while it is not done.
     */
    static int serviceResult(CompletableFuture<? extends UaResponseMessage> call) {
        if (!call.isDone()) {
            return -1;
        }
        try {
            return call.join().responseHeader().serviceResult().value();
        } catch (CompletionException e) {
            if (e.getCause() instanceof UaException fault) {
                return fault.statusCode().value();
            }
            return StatusCodes.BadUnexpectedError;
        }
    }
}
