package dev.opcua.cli.commands;

import dev.opcua.cli.CliException;
import dev.opcua.cli.ClientCommand;
import dev.opcua.cli.ExitCodes;
import dev.opcua.cli.JsonLine;
import dev.opcua.cli.Output;
import dev.opcua.cli.values.NodeIdText;
import dev.opcua.cli.values.ValueText;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.services.VariableTypes.VariableType;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Write (Part 4, 5.10.4) of a variable's Value, the text converted to the variable's DataType and ValueRank
 * (Part 3, 5.6.2) read from the server first.
 */
@Command(name = "write", description = "Write a variable's Value, typed from its DataType and ValueRank: 42, 1.5, true,"
        + " text, [1, 2, 3], [en] text, 2026-12-05T10:00:00Z ...")
public final class WriteCommand extends ClientCommand {

    @Parameters(index = "1", paramLabel = "NODE", description = "The variable's node id.")
    String node;

    @Parameters(index = "2", paramLabel = "VALUE", description = "The value as text; arrays as [a, b, c].")
    String value;

    @Override
    protected void prepare() {
        NodeIdText.check(node);
    }

    @Override
    protected int run(OpcUaClient client, Output output) throws Exception {
        long wait = connection.timeout().toMillis() * 2;
        NodeId id = NodeIdText.resolve(client, node);
        String nodeText = NodeIdText.format(client, id);
        VariableType type;
        try {
            type = client.variableType(id).get(wait, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UaException ua) {
                throw CliException.badStatus("cannot write " + nodeText + ": its DataType and ValueRank cannot be read ("
                        + ua.statusCode().name() + "): " + ua.getMessage());
            }
            throw e;
        }
        Variant typed = ValueText.parse(value, type.type(), type.valueRank(), nodeText);
        StatusCode status = client.writeValue(id, typed).get(wait, TimeUnit.MILLISECONDS);
        if (output.json()) {
            output.json(new JsonLine(client.namespaces().uris()).string("nodeId", nodeText).value("value", typed)
                    .status("status", status));
        } else {
            output.line(output.cyan(nodeText) + " := " + ValueText.format(typed) + "  " + output.status(status));
        }
        return status.isBad() ? ExitCodes.BAD_STATUS : ExitCodes.OK;
    }
}
