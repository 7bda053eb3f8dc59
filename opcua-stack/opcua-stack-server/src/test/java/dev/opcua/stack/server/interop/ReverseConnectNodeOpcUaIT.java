package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.ReverseConnectListener;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.server.OpcUaServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Reverse connect (Part 6, 7.1.3) with node-opcua, an independent implementation, in both roles: node-opcua's
 * client takes our server's reverse connection and reads over a session; node-opcua's server dials our
 * {@link ReverseConnectListener} and answers GetEndpoints over it. Runs in profile {@code node-opcua}, after
 * {@code npm ci} in {@code opcua-benchmarks/peers/node-opcua} (the README's install line).
 */
class ReverseConnectNodeOpcUaIT {

    private static final long WAIT_SECONDS = 60;

    private static Path peerDirectory() {
        Path project = Path.of(System.getProperty("opcua.project.dir", "../.."));
        Path peer = project.resolve("opcua-benchmarks/peers/node-opcua");
        assertThat(peer.resolve("node_modules/node-opcua")).as("node-opcua installed: npm ci --prefix " + peer)
                .isDirectory();
        return peer;
    }

    @Test
    void node_opcua_s_client_opens_a_session_over_the_connection_our_server_dials() throws Exception {
        try (NodeProcess client = NodeProcess.start("reverse-client.mjs", "0", "urn:test:reverse:ours")) {
            String listening = client.awaitLine("LISTENING ");
            int port = Integer.parseInt(listening.substring("LISTENING ".length()).strip());
            OpcUaServer server = OpcUaServer.builder().applicationUri("urn:test:reverse:ours")
                    .bindAddress("127.0.0.1").port(0).hostnames(List.of("127.0.0.1"))
                    .reverseConnect(List.of("opc.tcp://127.0.0.1:" + port), Duration.ofMillis(200), 1)
                    .build().start();
            try {
                String result = client.awaitLine("RESULT ");
                assertThat(result).contains("\"state\":0") // ServerState Running
                        .contains("http://opcfoundation.org/UA/")
                        .contains(server.endpointUrl());
                assertThat(client.exitCode()).isZero();
                assertThat(server.statistics().reverseConnect().taken()).isGreaterThanOrEqualTo(1);
            } finally {
                server.close();
            }
        }
    }

    @Test
    void node_opcua_s_server_dials_our_listener_and_answers_get_endpoints_over_it() throws Exception {
        try (ClientResources resources = ClientResources.create();
                ReverseConnectListener listener = ReverseConnectListener.listen("127.0.0.1", 0, resources);
                NodeProcess server = NodeProcess.start("reverse-server.mjs", String.valueOf(listener.port()))) {
            String[] ready = server.awaitLine("READY ").split(" ");
            String serverUri = ready[1];
            UaTcpClientChannel channel = listener.accept(serverUri, null, TransportQuotas.DEFAULT,
                    ClientChannelSecurity.NONE).get(WAIT_SECONDS, TimeUnit.SECONDS);
            try {
                GetEndpointsResponse response = channel.request(new GetEndpointsRequest(RequestHeaders.create(10_000),
                        channel.endpointUrl(), new String[0], new String[0]), GetEndpointsResponse.class)
                        .get(WAIT_SECONDS, TimeUnit.SECONDS);
                assertThat(response.endpoints()).isNotEmpty();
                for (EndpointDescription endpoint : response.endpoints()) {
                    assertThat(endpoint.server().applicationUri()).isEqualTo(serverUri);
                }
            } finally {
                channel.close().get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
            assertThat(listener.statistics().accepted()).isGreaterThanOrEqualTo(1);
        }
    }

    /** A node script of the peer directory, its standard output read line by line. */
    private static final class NodeProcess implements AutoCloseable {

        private final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final List<String> seen = new ArrayList<>();

        private NodeProcess(Process process) {
            this.process = process;
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    lines.add("READ FAILED " + e);
                }
            }, "node-opcua-peer-stdout");
            reader.setDaemon(true);
            reader.start();
        }

        static NodeProcess start(String script, String... args) throws IOException {
            Path peer = peerDirectory();
            List<String> command = new ArrayList<>(List.of("node", script));
            command.addAll(List.of(args));
            Path log = Files.createTempFile("node-opcua-peer-", ".log");
            return new NodeProcess(new ProcessBuilder(command).directory(peer.toFile())
                    .redirectError(log.toFile()).start());
        }

        /** The next line starting with {@code prefix}; fails with what the script printed when none comes. */
        String awaitLine(String prefix) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (System.nanoTime() < deadline) {
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line == null) {
                    continue;
                }
                seen.add(line);
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
            throw new AssertionError("node-opcua printed no line starting with '" + prefix + "' within "
                    + WAIT_SECONDS + " s; it printed " + seen);
        }

        int exitCode() throws InterruptedException {
            assertThat(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).as("node-opcua exits").isTrue();
            return process.exitValue();
        }

        @Override
        public void close() throws Exception {
            process.getOutputStream().close(); // the server script stops when its input closes
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
