package dev.opcua.stack.pubsub.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.pubsub.transport.MessageHandler;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.TransportException;
import dev.opcua.stack.pubsub.transport.TransportStatistics;
import java.net.DatagramSocket;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** UdpTransport on 127.0.0.1 and on the loopback interface's multicast: round trips, limits, topics, close. */
class UdpTransportTest {

    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final QualityOfService QOS = QualityOfService.AT_MOST_ONCE;
    private final List<UdpTransport> transports = new ArrayList<>();

    @AfterEach
    void closeAll() {
        transports.forEach(UdpTransport::close);
    }

    static int freePort() throws SocketException {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private UdpTransport transport(UdpSettings.Builder settings) {
        UdpTransport t = new UdpTransport(settings.build());
        transports.add(t);
        return t;
    }

    private UdpTransport started(UdpSettings.Builder settings) throws Exception {
        UdpTransport t = transport(settings);
        t.start().get(5, TimeUnit.SECONDS);
        return t;
    }

    /** Collects what a subscription receives, and on which thread. */
    static final class Inbox implements MessageHandler {
        record Received(String topic, String text, String thread) {
        }

        final List<Received> messages = new CopyOnWriteArrayList<>();

        @Override
        public void onMessage(String topic, byte[] payload) {
            messages.add(new Received(topic, new String(payload, StandardCharsets.UTF_8),
                    Thread.currentThread().getName()));
        }

        List<String> texts() {
            return messages.stream().map(Received::text).toList();
        }
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void unicast_publisher_to_subscriber_round_trip() throws Exception {
        String url = "opc.udp://127.0.0.1:" + freePort();
        UdpTransport subscriber = started(UdpSettings.builder(url));
        Inbox inbox = new Inbox();
        subscriber.subscribe(url, QOS, inbox).get(5, TimeUnit.SECONDS);
        assertThat(subscriber.receiveAddress().getPort()).isEqualTo(UdpAddress.parse(url).port());
        UdpTransport publisher = started(UdpSettings.builder("opc.udp://localhost:" + freePort()));
        assertThat(publisher.isConnected()).isTrue();

        for (int i = 0; i < 5; i++) {
            publisher.publish(url, text("m" + i), QualityOfService.EXACTLY_ONCE, true); // QoS and retain ignored
        }
        await().atMost(WAIT).until(() -> inbox.messages.size() == 5);
        assertThat(inbox.texts()).containsExactlyInAnyOrder("m0", "m1", "m2", "m3", "m4");
        assertThat(inbox.messages).allSatisfy(m -> {
            assertThat(m.topic()).isEqualTo(url);
            assertThat(m.thread()).startsWith("opcua-udp-");
        });
        await().atMost(WAIT).until(() -> publisher.statistics().messagesSent() == 5);
        TransportStatistics out = publisher.statistics();
        assertThat(out.bytesSent()).isEqualTo(10);
        assertThat(out.messagesDropped()).isZero();
        assertThat(out.queued()).isZero();
        TransportStatistics in = subscriber.statistics();
        assertThat(in.messagesReceived()).isEqualTo(5);
        assertThat(in.bytesReceived()).isEqualTo(10);

        subscriber.unsubscribe(url).get(1, TimeUnit.SECONDS);
        publisher.publish(url, text("after"), QOS, false);
        await().atMost(WAIT).until(() -> subscriber.statistics().messagesReceived() == 6);
        assertThat(inbox.messages).hasSize(5);
    }

    @Test
    void oversized_messages_are_dropped_and_counted_on_both_sides() throws Exception {
        String url = "opc.udp://127.0.0.1:" + freePort();
        UdpTransport subscriber = started(UdpSettings.builder(url).maxDatagramSize(100));
        Inbox inbox = new Inbox();
        subscriber.subscribe(url, QOS, inbox).get(5, TimeUnit.SECONDS);
        UdpTransport small = started(UdpSettings.builder(url).maxDatagramSize(100));
        UdpTransport large = started(UdpSettings.builder(url));

        small.publish(url, new byte[101], QOS, false);
        assertThat(small.statistics().messagesDropped()).isEqualTo(1);
        assertThat(small.oversizedMessages()).isEqualTo(1);
        assertThat(small.statistics().messagesSent()).isZero();

        large.publish(url, new byte[5000], QOS, false); // beyond the receiver's limit: dropped there
        large.publish(url, new byte[101], QOS, false);  // one byte beyond: recognised, not cut to 100
        small.publish(url, text("x".repeat(100)), QOS, false);
        await().atMost(WAIT).until(() -> inbox.messages.size() == 1 && subscriber.statistics().messagesDropped() == 2);
        assertThat(inbox.texts()).containsExactly("x".repeat(100));
        assertThat(subscriber.oversizedMessages()).isEqualTo(2);
        assertThat(subscriber.statistics().messagesReceived()).isEqualTo(1);
    }

    @Test
    void multicast_round_trip_on_the_loopback_interface() throws Exception {
        NetworkInterface lo = NetworkInterface.getByName("lo");
        Assumptions.assumeTrue(lo != null && lo.isUp(), "no loopback interface named lo (Linux)");
        int b = ThreadLocalRandom.current().nextInt(1, 255);
        String url = "opc.udp://239.255." + b + ".42:" + freePort();
        UdpTransport first = started(UdpSettings.builder(url).networkInterface("lo"));
        UdpTransport second = started(UdpSettings.builder(url).networkInterface("127.0.0.1"));
        Inbox inbox1 = new Inbox();
        Inbox inbox2 = new Inbox();
        try {
            first.subscribe(url, QOS, inbox1).get(5, TimeUnit.SECONDS);
            second.subscribe(url, QOS, inbox2).get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Assumptions.abort("cannot join a multicast group on lo here: " + e.getCause().getMessage());
        }
        UdpTransport publisher = started(UdpSettings.builder(url).networkInterface("lo").multicastTtl(0));

        publisher.publish(url, text("to the group"), QOS, false);
        // the first subscriber publishes too: with loopback on, it receives its own datagram like everyone else
        first.publish(url, text("from a member"), QOS, false);
        await().atMost(WAIT).until(() -> inbox1.messages.size() == 2 && inbox2.messages.size() == 2);
        assertThat(inbox1.texts()).containsExactlyInAnyOrder("to the group", "from a member");
        assertThat(inbox2.texts()).containsExactlyInAnyOrder("to the group", "from a member");
        assertThat(publisher.statistics().messagesSent()).isEqualTo(1);
    }

    @Test
    void topics_that_are_not_addresses_are_not_sent_and_filters_get_nothing() throws Exception {
        String url = "opc.udp://127.0.0.1:" + freePort();
        UdpTransport transport = started(UdpSettings.builder(url));
        Inbox inbox = new Inbox();
        Inbox topicless = new Inbox();
        transport.subscribe(url, QOS, inbox).get(5, TimeUnit.SECONDS);
        assertThat(transport.subscribe("opcua/uadp/metadata/2234/#", QOS, topicless)).isCompleted();

        transport.publish("opcua/json/status/2234", text("status"), QOS, true);
        transport.publish("opcua/json/status/2234", text("status"), QOS, true);
        assertThat(transport.unaddressedMessages()).isEqualTo(2);
        transport.publish(url.replace("127.0.0.1", "LOCALHOST").replace("opc.udp", "OPC.UDP"), text("hi"), QOS,
                false); // a host name, resolved on the transport's thread
        await().atMost(WAIT).until(() -> inbox.messages.size() == 1);
        assertThat(topicless.messages).isEmpty();
        TransportStatistics s = transport.statistics();
        assertThat(s.messagesSent()).isEqualTo(1);
        assertThat(s.messagesDropped()).isZero();

        assertThatThrownBy(() -> transport.subscribe("opc.udp://127.0.0.1:1", QOS, inbox))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(url);
        assertThatThrownBy(() -> transport.publish("opc.udp://h:4840/x", text("x"), QOS, false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void publishing_before_start_drops_and_start_failures_name_the_url() throws Exception {
        UdpTransport notStarted = transport(UdpSettings.builder("opc.udp://127.0.0.1:4840"));
        notStarted.publish("opc.udp://127.0.0.1:4840", text("early"), QOS, false);
        assertThat(notStarted.statistics().messagesDropped()).isEqualTo(1);
        assertThat(notStarted.isConnected()).isFalse();

        UdpTransport noInterface = transport(UdpSettings.builder("opc.udp://239.255.0.1:4840")
                .networkInterface("no-such-nic0"));
        assertThatThrownBy(() -> noInterface.start().get(5, TimeUnit.SECONDS)).cause()
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("opc.udp://239.255.0.1:4840").hasMessageContaining("no-such-nic0");
        assertThat(noInterface.statistics().lastError()).contains("no-such-nic0");

        UdpTransport unknownHost = transport(UdpSettings.builder("opc.udp://no-such-host.invalid:4840"));
        assertThatThrownBy(() -> unknownHost.start().get(10, TimeUnit.SECONDS)).cause()
                .isInstanceOf(TransportException.class).hasMessageContaining("no-such-host.invalid");
        assertThatThrownBy(() -> unknownHost.subscribe("opc.udp://no-such-host.invalid:4840", QOS, new Inbox())
                .get(5, TimeUnit.SECONDS)).cause().isInstanceOf(TransportException.class);
    }

    @Test
    void a_taken_unicast_port_fails_the_subscription() throws Exception {
        String url = "opc.udp://127.0.0.1:" + freePort();
        UdpTransport first = started(UdpSettings.builder(url));
        first.subscribe(url, QOS, new Inbox()).get(5, TimeUnit.SECONDS);
        UdpTransport second = started(UdpSettings.builder(url));
        assertThatThrownBy(() -> second.subscribe(url, QOS, new Inbox()).get(5, TimeUnit.SECONDS)).cause()
                .isInstanceOf(TransportException.class).hasMessageContaining(url);
        assertThat(second.statistics().lastError()).contains("cannot receive");
    }

    @Test
    void close_ends_the_thread_and_refuses_further_use() throws Exception {
        int port = freePort();
        String url = "opc.udp://127.0.0.1:" + port;
        UdpTransport transport = started(UdpSettings.builder(url));
        transport.subscribe(url, QOS, new Inbox()).get(5, TimeUnit.SECONDS);
        assertThat(udpThreads(port)).hasSize(1);

        transport.close();
        transport.close();
        await().atMost(WAIT).until(() -> udpThreads(port).isEmpty());
        assertThat(transport.isConnected()).isFalse();
        assertThatThrownBy(() -> transport.publish(url, text("x"), QOS, false))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> transport.subscribe(url, QOS, new Inbox()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(transport.start()).isCompletedExceptionally();
        // the port is free again
        try (DatagramSocket again = new DatagramSocket(port)) {
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void a_handler_may_close_its_transport() throws Exception {
        int port = freePort();
        String url = "opc.udp://127.0.0.1:" + port;
        UdpTransport transport = started(UdpSettings.builder(url));
        List<String> seen = new CopyOnWriteArrayList<>();
        transport.subscribe(url, QOS, (topic, payload) -> {
            seen.add(topic);
            transport.close();
        }).get(5, TimeUnit.SECONDS);
        transport.publish(url, text("bye"), QOS, false);
        await().atMost(WAIT).until(() -> udpThreads(port).isEmpty());
        assertThat(seen).containsExactly(url);
    }

    private static List<String> udpThreads(int port) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("opcua-udp-" + port + "-")).toList();
    }
}
