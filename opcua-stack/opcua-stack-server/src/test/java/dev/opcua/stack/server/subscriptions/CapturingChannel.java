package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.ServiceFault;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

/** A secure channel without a socket that keeps every answer, in order, for the test thread to inspect. */
final class CapturingChannel implements ServerSecureChannel {

    /** One answer: a response, or a ServiceFault built from {@code sendServiceFault}. */
    record Answer(long requestId, UaStructure message, String thread) {

        PublishResponse publish() {
            if (!(message instanceof PublishResponse response)) {
                throw new AssertionError("request " + requestId + " was answered with " + message);
            }
            return response;
        }

        /** The status of a ServiceFault, or -1 for another answer. */
        int faultStatus() {
            return message instanceof ServiceFault fault ? fault.responseHeader().serviceResult().value() : -1;
        }
    }

    private final long id;
    private final List<Answer> answers = new ArrayList<>();
    private volatile boolean open = true;
    private volatile long maxResponseBodySize;

    CapturingChannel(long id) {
        this.id = id;
    }

    /** Every answer so far. */
    synchronized List<Answer> answers() {
        return List.copyOf(answers);
    }

    /** Removes and returns the answers so far. */
    synchronized List<Answer> take() {
        List<Answer> taken = List.copyOf(answers);
        answers.clear();
        return taken;
    }

    /** Removes and returns the only answer so far. */
    synchronized Answer single() {
        List<Answer> taken = take();
        if (taken.size() != 1) {
            throw new AssertionError("expected one answer, got " + taken);
        }
        return taken.get(0);
    }

    synchronized int count() {
        return answers.size();
    }

    @Override
    public long secureChannelId() {
        return id;
    }

    @Override
    public SocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", 50_000);
    }

    @Override
    public String endpointUrl() {
        return SubscriptionBench.URL;
    }

    /** As if the client's Hello had limited a response body to {@code bytes}. */
    void maxResponseBodySize(long bytes) {
        maxResponseBodySize = bytes;
    }

    @Override
    public long maxResponseBodySize() {
        return maxResponseBodySize;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public synchronized void sendResponse(long requestId, UaStructure response) {
        answers.add(new Answer(requestId, response, Thread.currentThread().getName()));
    }

    @Override
    public synchronized void sendServiceFault(long requestId, long requestHandle, int status) {
        answers.add(new Answer(requestId, ResponseHeaders.serviceFault(requestHandle, status),
                Thread.currentThread().getName()));
    }

    @Override
    public void close() {
        open = false;
    }
}
