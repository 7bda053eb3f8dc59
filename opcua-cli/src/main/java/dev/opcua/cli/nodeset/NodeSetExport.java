package dev.opcua.cli.nodeset;

import dev.opcua.cli.CliException;
import dev.opcua.cli.Output;
import dev.opcua.stack.client.OpcUaClient;
import java.io.OutputStream;
import java.util.List;

/** One namespace of a connected server written as NodeSet2 XML: {@link NamespaceReader}, then {@link NodeSetXmlWriter}. */
public final class NodeSetExport {

    /** What was exported. */
    public record Result(int nodes, int valuesLeftOut) {
    }

    private NodeSetExport() {
    }

    /**
     * @throws CliException exit code 1 when the server has no such namespace, or it is namespace 0
     */
    public static Result export(OpcUaClient client, String namespaceUri, OutputStream out, Output output,
            long timeoutMillis) throws Exception {
        int index = client.namespaces().indexOf(namespaceUri);
        if (index < 0) {
            throw CliException.usage("the server has no namespace '" + namespaceUri + "'; its namespaces: "
                    + client.namespaces().uris());
        }
        if (index == 0) {
            throw CliException.usage("namespace 0 is the standard's own model (Opc.Ua.NodeSet2.xml): export another");
        }
        List<BrowsedNode> nodes = new NamespaceReader(client, output, timeoutMillis).read(index);
        NodeSetXmlWriter writer = new NodeSetXmlWriter(new DocumentNamespaces(client.namespaces(), index), namespaceUri);
        writer.write(nodes, out);
        return new Result(nodes.size(), writer.valuesLeftOut());
    }
}
