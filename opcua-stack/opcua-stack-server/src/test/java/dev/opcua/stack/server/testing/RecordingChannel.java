package dev.opcua.stack.server.testing;

import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.UaStructure;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A {@link ServerSecureChannel} without a socket: records what is sent, with the sending thread. */
public final class RecordingChannel implements ServerSecureChannel {

    /** One answer: a response, or a ServiceFault built from {@code sendServiceFault}. */
    public record Answer(long requestId, UaStructure message, String thread) {
    }

    private final BlockingQueue<Answer> answers = new LinkedBlockingQueue<>();
    private volatile boolean open = true;
    private volatile Object listenerState;

    /** The next answer, waiting up to five seconds. */
    public Answer next() {
        try {
            Answer answer = answers.poll(5, TimeUnit.SECONDS);
            if (answer == null) {
                throw new AssertionError("no answer within 5 s");
            }
            return answer;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Override
    public long secureChannelId() {
        return 1;
    }

    @Override
    public SocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", 50_000);
    }

    @Override
    public String endpointUrl() {
        return "opc.tcp://localhost:4840/";
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void sendResponse(long requestId, UaStructure response) {
        answers.add(new Answer(requestId, response, Thread.currentThread().getName()));
    }

    @Override
    public void sendServiceFault(long requestId, long requestHandle, int status) {
        answers.add(new Answer(requestId, ResponseHeaders.serviceFault(requestHandle, status),
                Thread.currentThread().getName()));
    }

    @Override
    public Object listenerState() {
        return listenerState;
    }

    @Override
    public void attachListenerState(Object state) {
        listenerState = state;
    }

    @Override
    public void close() {
        open = false;
    }
}
