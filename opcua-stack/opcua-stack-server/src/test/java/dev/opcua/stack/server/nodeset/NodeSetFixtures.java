package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.models.StandardModels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The NodeSet2 files the tests import: this server's own export of its built-in DI and Machinery
 * models ({@link StandardModels}), committed below {@code src/test/resources/nodesets/} and shipped to
 * other modules' tests in this module's test jar. {@link NodeSetFixturesTest} keeps them equal to a
 * fresh export.
 */
final class NodeSetFixtures {

    static final String DI = "http://opcfoundation.org/UA/DI/";
    static final String MACHINERY = "http://opcfoundation.org/UA/Machinery/";

    /** The classpath folder of the files. */
    static final String RESOURCE_DIR = "nodesets/";

    /** Namespace URI to file name, in load order (Machinery requires DI). */
    static final Map<String, String> FILES;

    static {
        Map<String, String> files = new LinkedHashMap<>();
        files.put(DI, "DI.NodeSet2.xml");
        files.put(MACHINERY, "Machinery.NodeSet2.xml");
        FILES = java.util.Collections.unmodifiableMap(files);
    }

    private NodeSetFixtures() {
    }

    static URL di() {
        return resource(FILES.get(DI));
    }

    static URL machinery() {
        return resource(FILES.get(MACHINERY));
    }

    private static URL resource(String file) {
        URL url = NodeSetFixtures.class.getClassLoader().getResource(RESOURCE_DIR + file);
        if (url == null) {
            throw new IllegalStateException(RESOURCE_DIR + file + " is not on the test class path");
        }
        return url;
    }

    /** The committed folder of the files: {@code src/test/resources/nodesets} of this module. */
    static Path sourceDir() {
        String project = System.getProperty("opcua.project.dir");
        Path root = project != null && !project.isBlank() ? Path.of(project)
                : Path.of("").toAbsolutePath().resolve("../..");
        return root.resolve("opcua-stack/opcua-stack-server/src/test/resources").resolve(RESOURCE_DIR).normalize();
    }

    /** A server with the built-in DI and Machinery models, started on a free port of the loopback. */
    static OpcUaServer serverWithBuiltInModels() {
        return start(b -> b.nodeSet(StandardModels.di()).nodeSet(StandardModels.machinery()));
    }

    /** A server configured by {@code configuration}, started on a free port of the loopback. */
    static OpcUaServer start(Consumer<OpcUaServer.Builder> configuration) {
        OpcUaServer.Builder builder = OpcUaServer.builder()
                .applicationUri("urn:test:nodeset:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"));
        configuration.accept(builder);
        return builder.build().start();
    }

    /** The namespace's export from {@code server}. */
    static byte[] export(OpcUaServer server, String namespaceUri) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        server.exportNodeSet(namespaceUri, out);
        return out.toByteArray();
    }
}
