package dev.opcua.cli.commands;

import dev.opcua.cli.CliException;
import dev.opcua.cli.ClientCommand;
import dev.opcua.cli.ExitCodes;
import dev.opcua.cli.JsonLine;
import dev.opcua.cli.Output;
import dev.opcua.cli.values.NodeIdText;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Browse (Part 4, 5.9.2) of the hierarchical references below a node, as a tree to {@code --depth} levels. Each
 * node's references are asked for in pages (BrowseNext with the continuation point, 5.9.3), so a folder of a
 * million nodes is never held at once; {@code --max} and Ctrl-C stop it, releasing the continuation point, with
 * what was browsed so far printed.
 */
@Command(name = "browse", description = "Browse the address space below a node (the Objects folder by default) as a "
        + "tree.")
public final class BrowseCommand extends ClientCommand {

    private static final String OBJECTS_FOLDER = "i=85";

    @Parameters(index = "1", arity = "0..1", paramLabel = "NODE", defaultValue = OBJECTS_FOLDER,
            description = "Where to start (default ${DEFAULT-VALUE}, the Objects folder).")
    String node;

    @Option(names = {"-d", "--depth"}, paramLabel = "N", defaultValue = "1",
            description = "How many levels below the node (default ${DEFAULT-VALUE}).")
    int depth;

    @Option(names = "--max", paramLabel = "N", defaultValue = "10000",
            description = "Stop after this many nodes (default ${DEFAULT-VALUE}).")
    int max;

    @Option(names = "--page-size", paramLabel = "N", defaultValue = "1000",
            description = "References per Browse/BrowseNext answer (default ${DEFAULT-VALUE}; 0: the server decides).")
    long pageSize;

    private int count;
    private boolean truncated;
    private final Set<NodeId> expanded = new HashSet<>();

    /** Thrown from a page to stop browsing: the continuation point is released. */
    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stop() {
            super(null, null, false, false);
        }
    }

    @Override
    protected void prepare() {
        NodeIdText.check(node);
        if (depth < 1 || max < 1 || pageSize < 0) {
            throw CliException.usage("--depth and --max must be at least 1, --page-size at least 0");
        }
    }

    @Override
    protected int run(OpcUaClient client, Output output) throws Exception {
        NodeId start = NodeIdText.resolve(client, node);
        if (!output.json()) {
            output.line(output.bold(NodeIdText.format(client, start)));
        }
        expanded.add(start);
        browse(client, output, start, 1, "");
        if (truncated) {
            output.note(stop.requested() ? "interrupted: " + count + " nodes shown"
                    : "stopped at --max " + max + " nodes; raise --max to see more");
        }
        return ExitCodes.OK;
    }

    private void browse(OpcUaClient client, Output output, NodeId parent, int level, String indent) throws Exception {
        List<ReferenceDescription> children = new ArrayList<>();
        try {
            client.browseEach(OpcUaClient.hierarchical(parent), pageSize, page -> {
                for (ReferenceDescription reference : page) {
                    if (stop.requested() || count >= max) {
                        truncated = true;
                        throw new Stop();
                    }
                    children.add(reference);
                    count++;
                }
                output.progress("browsed " + count + " nodes");
            }).get(connection.timeout().toMillis() * 4, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof Stop)) {
                if (e.getCause() instanceof UaException ua && level > 1) {
                    output.note(indent + "  (" + ua.statusCode().name() + ": " + ua.getMessage() + ")");
                    return;
                }
                throw e;
            }
        }
        for (int i = 0; i < children.size(); i++) {
            ReferenceDescription child = children.get(i);
            boolean last = i == children.size() - 1;
            print(client, output, parent, child, level, indent + (last ? "└─ " : "├─ "));
            NodeId childId = local(client, child.nodeId());
            if (level < depth && childId != null && expanded.add(childId) && !stop.requested()) {
                browse(client, output, childId, level + 1, indent + (last ? "   " : "│  "));
            }
        }
    }

    private static NodeId local(OpcUaClient client, ExpandedNodeId id) {
        try {
            return id.isLocal() ? client.namespaces().toNodeId(id) : null;
        } catch (UaException e) {
            return null;
        }
    }

    private void print(OpcUaClient client, Output output, NodeId parent, ReferenceDescription r, int level,
            String prefix) {
        String id = NodeIdText.format(client, r.nodeId());
        String nodeClass = r.nodeClass() == null ? "" : r.nodeClass().name();
        if (output.json()) {
            JsonLine line = new JsonLine(client.namespaces().uris()).string("nodeId", id)
                    .string("browseName", String.valueOf(r.browseName()))
                    .string("displayName", r.displayName() == null ? null : r.displayName().text())
                    .string("nodeClass", nodeClass).number("depth", level)
                    .string("parent", NodeIdText.format(client, parent));
            if (r.typeDefinition() != null && !r.typeDefinition().isNull()) {
                line.string("typeDefinition", NodeIdText.format(client, r.typeDefinition()));
            }
            output.json(line);
            return;
        }
        output.line(output.dim(prefix) + output.bold(String.valueOf(r.browseName())) + "  "
                + output.dim("(" + nodeClass + ")") + "  " + output.cyan(id));
    }
}
