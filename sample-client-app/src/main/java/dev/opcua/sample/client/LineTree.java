package dev.opcua.sample.client;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * Browses the filling line once the client is first connected and logs its tree (objects, variables
 * with their values' node ids, methods): what an engineer looks at first when meeting a server.
 */
@Component
public class LineTree implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(LineTree.class);
    private static final int MAX_DEPTH = 4;

    private final OpcUaClient plant;
    private final AtomicBoolean logged = new AtomicBoolean();

    public LineTree(OpcUaClient plant) {
        this.plant = plant;
    }

    @Override
    public void afterSingletonsInstantiated() {
        plant.addStateListener((previous, current, cause) -> {
            if (current == ClientState.CONNECTED && logged.compareAndSet(false, true)) {
                logTree();
            }
        });
    }

    /** Browses the line and logs it; the future ends when the tree is logged. */
    public CompletableFuture<String> logTree() {
        StringBuilder tree = new StringBuilder("Filling line on ").append(plant.config().endpointUrl()).append(':');
        NodeId line = plant.nodeId(PlantNodes.LINE);
        return browse(line, "FillingLine", NodeClass.Object, 0, tree).thenApply(done -> {
            log.info("{}", tree);
            return tree.toString();
        }).whenComplete((t, failure) -> {
            if (failure != null) {
                logged.set(false);
                log.warn("Could not browse the filling line: {}", Failures.unwrap(failure).getMessage());
            }
        });
    }

    private CompletableFuture<Void> browse(NodeId node, String name, NodeClass nodeClass, int depth,
            StringBuilder tree) {
        tree.append('\n').append("  ".repeat(depth + 1)).append(name).append(" (").append(nodeClass)
                .append(", ").append(node).append(')');
        if (depth == MAX_DEPTH || nodeClass == NodeClass.Method) {
            return CompletableFuture.completedFuture(null);
        }
        return plant.browse(node).thenCompose(references -> children(references, depth, tree));
    }

    private CompletableFuture<Void> children(List<ReferenceDescription> references, int depth, StringBuilder tree) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (ReferenceDescription child : references) {
            if (!child.nodeId().isLocal() || child.nodeClass() == NodeClass.ObjectType
                    || child.nodeClass() == NodeClass.VariableType) {
                continue;
            }
            // one child after the other, so that the tree is logged in the server's order
            chain = chain.thenCompose(done -> browse(child.nodeId().nodeId(), child.browseName().name(),
                    child.nodeClass(), depth + 1, tree));
        }
        return chain;
    }
}
