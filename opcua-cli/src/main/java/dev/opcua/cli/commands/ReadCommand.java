package dev.opcua.cli.commands;

import dev.opcua.cli.ClientCommand;
import dev.opcua.cli.ExitCodes;
import dev.opcua.cli.JsonLine;
import dev.opcua.cli.Output;
import dev.opcua.cli.values.AttributeNames;
import dev.opcua.cli.values.NodeIdText;
import dev.opcua.cli.values.ValueText;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.structured.ReadValueId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Read (Part 4, 5.10.2): one attribute of one or more nodes, a line (or JSON object) per node. */
@Command(name = "read", description = "Read an attribute (the Value by default) of one or more nodes.")
public final class ReadCommand extends ClientCommand {

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "NODE",
            description = "Node ids: ns=2;s=Line1.Speed, nsu=urn:acme:line1;s=Speed, i=2258.")
    List<String> nodes;

    @Option(names = {"-a", "--attribute"}, paramLabel = "NAME", defaultValue = "Value",
            description = "The attribute: Value, DataType, BrowseName, DisplayName, ValueRank, AccessLevel ... "
                    + "(default ${DEFAULT-VALUE}).")
    String attribute;

    @Override
    protected void prepare() {
        nodes.forEach(NodeIdText::check);
        AttributeNames.id(attribute);
    }

    @Override
    protected int run(OpcUaClient client, Output output) throws Exception {
        int attributeId = AttributeNames.id(attribute);
        List<NodeId> ids = new ArrayList<>();
        List<ReadValueId> reads = new ArrayList<>();
        for (String text : nodes) {
            NodeId id = NodeIdText.resolve(client, text);
            ids.add(id);
            reads.add(new ReadValueId(id, attributeId, null, QualifiedName.NULL));
        }
        List<DataValue> values = client.read(reads).get(connection.timeout().toMillis() * 2, TimeUnit.MILLISECONDS);
        boolean allGood = true;
        for (int i = 0; i < values.size(); i++) {
            DataValue value = values.get(i);
            allGood &= !value.statusCode().isBad();
            String node = NodeIdText.format(client, ids.get(i));
            if (output.json()) {
                output.json(new JsonLine(client.namespaces().uris()).string("nodeId", node)
                        .string("attribute", AttributeNames.name(attributeId)).dataValue(value));
            } else {
                String time = value.sourceTimestamp() == null || value.sourceTimestamp().isNull() ? ""
                        : "  " + output.dim(value.sourceTimestamp().toInstant().toString());
                output.line(output.cyan(node) + " = " + (value.statusCode().isBad() ? "" : ValueText.format(value.value())
                        + "  ") + output.status(value.statusCode()) + time);
            }
        }
        return allGood ? ExitCodes.OK : ExitCodes.BAD_STATUS;
    }
}
