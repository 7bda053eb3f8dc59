package dev.opcua.cli.commands;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.structured.BrowsePath;
import dev.opcua.stack.core.types.structured.BrowsePathResult;
import dev.opcua.stack.core.types.structured.RelativePath;
import dev.opcua.stack.core.types.structured.RelativePathElement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A method's InputArguments and OutputArguments properties (Part 3, 5.7; Part 5, 6.2.1 Argument): found with
 * TranslateBrowsePathsToNodeIds over HasProperty and read in one Read; a method without one has no arguments.
 */
record MethodArguments(List<Argument> inputs, List<Argument> outputs) {

    static MethodArguments of(OpcUaClient client, NodeId method, long timeoutMillis) throws Exception {
        List<BrowsePath> paths = List.of(property(method, "InputArguments"), property(method, "OutputArguments"));
        List<BrowsePathResult> found = client.translateBrowsePaths(paths).get(timeoutMillis, TimeUnit.MILLISECONDS);
        List<NodeId> properties = new ArrayList<>();
        for (BrowsePathResult result : found) {
            properties.add(result.statusCode().isGood() && result.targets() != null && result.targets().length > 0
                    ? client.namespaces().toNodeId(result.targets()[0].targetId()) : null);
        }
        List<NodeId> toRead = properties.stream().filter(p -> p != null).toList();
        List<DataValue> values = toRead.isEmpty() ? List.of()
                : client.readValues(toRead).get(timeoutMillis, TimeUnit.MILLISECONDS);
        List<List<Argument>> lists = new ArrayList<>();
        int next = 0;
        for (NodeId property : properties) {
            lists.add(property == null ? List.of() : arguments(values.get(next++)));
        }
        return new MethodArguments(lists.get(0), lists.get(1));
    }

    private static BrowsePath property(NodeId method, String name) {
        return new BrowsePath(method, new RelativePath(new RelativePathElement[] {new RelativePathElement(
                NodeId.ns0(NodeIds.HasProperty), false, true, QualifiedName.of(0, name))}));
    }

    private static List<Argument> arguments(DataValue value) {
        List<Argument> arguments = new ArrayList<>();
        if (value.statusCode().isGood() && value.value().value() instanceof ExtensionObject[] objects) {
            for (ExtensionObject object : objects) {
                arguments.add(object.decoded(Argument.class));
            }
        }
        return arguments;
    }

    /** {@code name: DataType[]} for messages. */
    static String signature(List<Argument> arguments) {
        List<String> parts = new ArrayList<>();
        for (Argument a : arguments) {
            parts.add(a.name() + " (" + a.dataType() + (a.valueRank() >= 1 ? "[]" : "") + ")");
        }
        return parts.isEmpty() ? "no arguments" : String.join(", ", parts);
    }
}
