package dev.opcua.cli.commands;

import dev.opcua.cli.CliException;
import dev.opcua.cli.ClientCommand;
import dev.opcua.cli.ExitCodes;
import dev.opcua.cli.JsonLine;
import dev.opcua.cli.Output;
import dev.opcua.cli.values.NodeIdText;
import dev.opcua.cli.values.ValueText;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Call (Part 4, 5.11.2) of a method, the input arguments typed from the method's InputArguments (their DataType and
 * ValueRank), the outputs printed by the names of its OutputArguments.
 */
@Command(name = "call", description = "Call a method of an object; the arguments are typed from the method's "
        + "InputArguments.")
public final class CallCommand extends ClientCommand {

    @Parameters(index = "1", paramLabel = "OBJECT", description = "The object (or object type) the method is called on.")
    String object;

    @Parameters(index = "2", paramLabel = "METHOD", description = "The method's node id.")
    String method;

    @Parameters(index = "3..*", arity = "0..*", paramLabel = "ARG", description = "The input arguments, in order.")
    List<String> arguments = List.of();

    @Override
    protected void prepare() {
        NodeIdText.check(object);
        NodeIdText.check(method);
    }

    @Override
    protected int run(OpcUaClient client, Output output) throws Exception {
        long wait = connection.timeout().toMillis() * 2;
        NodeId objectId = NodeIdText.resolve(client, object);
        NodeId methodId = NodeIdText.resolve(client, method);
        MethodArguments signature = MethodArguments.of(client, methodId, wait);
        List<Argument> inputs = signature.inputs();
        if (inputs.size() != arguments.size()) {
            throw CliException.usage("the method " + NodeIdText.format(client, methodId) + " takes " + inputs.size()
                    + " input argument(s), " + arguments.size() + " given: " + MethodArguments.signature(inputs));
        }
        Variant[] values = new Variant[inputs.size()];
        for (int i = 0; i < values.length; i++) {
            Argument input = inputs.get(i);
            BuiltinType type = client.builtinTypeOf(input.dataType()).get(wait, TimeUnit.MILLISECONDS);
            values[i] = ValueText.parse(arguments.get(i), type, input.valueRank(), "argument " + (i + 1) + " ("
                    + input.name() + ")");
        }
        CallMethodResult result = client.call(List.of(new CallMethodRequest(objectId, methodId, values)))
                .get(wait, TimeUnit.MILLISECONDS).get(0);
        Variant[] outputs = result.outputArguments() == null ? new Variant[0] : result.outputArguments();
        if (output.json()) {
            JsonLine line = new JsonLine(client.namespaces().uris()).string("method", NodeIdText.format(client, methodId))
                    .status("status", result.statusCode()).beginArray("outputs");
            for (Variant out : outputs) {
                line.element(out);
            }
            line.endArray().beginArray("outputNames");
            for (int i = 0; i < outputs.length; i++) {
                line.element(name(signature.outputs(), i));
            }
            output.json(line.endArray());
        } else {
            output.line(output.cyan(NodeIdText.format(client, methodId)) + "  " + output.status(result.statusCode()));
            StatusCode[] inputResults = result.inputArgumentResults();
            for (int i = 0; inputResults != null && i < inputResults.length; i++) {
                if (inputResults[i] != null && inputResults[i].isBad()) {
                    output.line("  argument " + (i + 1) + " (" + inputs.get(i).name() + "): "
                            + output.status(inputResults[i]));
                }
            }
            for (int i = 0; i < outputs.length; i++) {
                output.line("  " + output.bold(name(signature.outputs(), i)) + " = " + ValueText.format(outputs[i]));
            }
        }
        return result.statusCode().isBad() ? ExitCodes.BAD_STATUS : ExitCodes.OK;
    }

    private static String name(List<Argument> arguments, int i) {
        return i < arguments.size() && arguments.get(i).name() != null ? arguments.get(i).name() : "output " + (i + 1);
    }
}
