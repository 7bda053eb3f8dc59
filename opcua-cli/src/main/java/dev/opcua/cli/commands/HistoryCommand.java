package dev.opcua.cli.commands;

import dev.opcua.cli.CliException;
import dev.opcua.cli.ClientCommand;
import dev.opcua.cli.DurationConverter;
import dev.opcua.cli.ExitCodes;
import dev.opcua.cli.JsonLine;
import dev.opcua.cli.Output;
import dev.opcua.cli.values.NodeIdText;
import dev.opcua.cli.values.ValueText;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.AggregateConfiguration;
import dev.opcua.stack.core.types.structured.HistoryData;
import dev.opcua.stack.core.types.structured.HistoryReadRequest;
import dev.opcua.stack.core.types.structured.HistoryReadResponse;
import dev.opcua.stack.core.types.structured.HistoryReadResult;
import dev.opcua.stack.core.types.structured.HistoryReadValueId;
import dev.opcua.stack.core.types.structured.ReadProcessedDetails;
import dev.opcua.stack.core.types.structured.ReadRawModifiedDetails;
import java.lang.reflect.Field;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * HistoryRead (Part 4, 5.10.3) of variables: raw values (ReadRawModifiedDetails, Part 11, 6.5.3) or, with
 * {@code --processed}, an aggregate per {@code --interval} (ReadProcessedDetails, Part 11, 6.5.4; the aggregates of
 * Part 13). Every page is followed with its continuation point; Ctrl-C stops and releases it. CSV on stdout
 * ({@code node,sourceTimestamp,serverTimestamp,value,status}), or JSON lines.
 */
@Command(name = "history", description = "Read the history of variables, raw or --processed, as CSV (or --json).")
public final class HistoryCommand extends ClientCommand {

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "NODE", description = "Historizing variables.")
    List<String> nodes;

    @Option(names = "--start", paramLabel = "TIME", description = "ISO-8601 instant (default: an hour before --end).")
    String start;

    @Option(names = "--end", paramLabel = "TIME", description = "ISO-8601 instant or now (default now).")
    String end = "now";

    @Option(names = "--max", paramLabel = "N", defaultValue = "0",
            description = "At most N values per node (default: all).")
    long max;

    @Option(names = "--page-size", paramLabel = "N", defaultValue = "1000",
            description = "Values per HistoryRead answer of a raw read (default ${DEFAULT-VALUE}).")
    long pageSize;

    @Option(names = "--processed", paramLabel = "AGGREGATE",
            description = "An aggregate of Part 13 per interval: Average, Minimum, Maximum, Count, Total, Start, End, "
                    + "Interpolative, TimeAverage ...")
    String aggregate;

    @Option(names = "--interval", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "1m",
            description = "The processing interval of --processed (default ${DEFAULT-VALUE}).")
    Duration interval;

    private Instant startTime;
    private Instant endTime;
    private NodeId aggregateId;

    @Override
    protected void prepare() {
        nodes.forEach(NodeIdText::check);
        endTime = instant(end, "--end");
        startTime = start == null ? endTime.minus(Duration.ofHours(1)) : instant(start, "--start");
        if (!startTime.isBefore(endTime)) {
            throw CliException.usage("--start " + startTime + " is not before --end " + endTime);
        }
        if (aggregate != null) {
            aggregateId = aggregate(aggregate);
        }
        if (max < 0 || pageSize < 1) {
            throw CliException.usage("--max must be 0 (all) or more, --page-size at least 1");
        }
    }

    private static Instant instant(String text, String option) {
        if (text.equalsIgnoreCase("now")) {
            return Instant.now();
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw CliException.usage(option + " '" + text + "' is not a time: expected an ISO-8601 instant such as "
                    + "2026-12-05T08:00:00Z, or now");
        }
    }

    /** The node id of an aggregate function (Part 13, 5.4) by its name: {@code Average} is i=2342. */
    private static NodeId aggregate(String name) {
        TreeSet<String> known = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (Field field : NodeIds.class.getFields()) {
            String fieldName = field.getName();
            if (fieldName.startsWith("AggregateFunction_") && fieldName.indexOf('_', 18) < 0) {
                String aggregateName = fieldName.substring("AggregateFunction_".length());
                if (aggregateName.equalsIgnoreCase(name)) {
                    try {
                        return NodeId.ns0(field.getInt(null));
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException(e);
                    }
                }
                known.add(aggregateName);
            }
        }
        throw CliException.usage("'" + name + "' is not an aggregate; one of " + known);
    }

    @Override
    protected int run(OpcUaClient client, Output output) throws Exception {
        if (!output.json()) {
            output.line("node,sourceTimestamp,serverTimestamp,value,status");
        }
        boolean allGood = true;
        for (String text : nodes) {
            NodeId id = NodeIdText.resolve(client, text);
            allGood &= readNode(client, output, id, NodeIdText.format(client, id));
            if (stop.requested()) {
                output.note("interrupted");
                break;
            }
        }
        return allGood ? ExitCodes.OK : ExitCodes.BAD_STATUS;
    }

    private boolean readNode(OpcUaClient client, Output output, NodeId id, String name) throws Exception {
        UaStructure details = aggregateId == null
                ? new ReadRawModifiedDetails(false, DateTime.ofInstant(startTime), DateTime.ofInstant(endTime),
                        max > 0 ? Math.min(max, pageSize) : pageSize, false)
                : new ReadProcessedDetails(DateTime.ofInstant(startTime), DateTime.ofInstant(endTime),
                        interval.toMillis(), new NodeId[] {aggregateId},
                        new AggregateConfiguration(true, false, (short) 100, (short) 100, false));
        ByteString continuation = ByteString.NULL;
        long values = 0;
        while (true) {
            HistoryReadResult result = read(client, details, id, continuation, false);
            if (result.statusCode().isBad()) {
                output.error(name + ": " + result.statusCode().name());
                return false;
            }
            for (DataValue value : values(result)) {
                print(output, client, name, value);
                values++;
                if (max > 0 && values >= max) {
                    break;
                }
            }
            output.progress("read " + values + " values of " + name);
            continuation = result.continuationPoint();
            boolean more = continuation != null && !continuation.isNull() && continuation.length() > 0;
            if (more && (stop.requested() || max > 0 && values >= max)) {
                read(client, details, id, continuation, true);
                return true;
            }
            if (!more) {
                return true;
            }
        }
    }

    private HistoryReadResult read(OpcUaClient client, UaStructure details, NodeId id, ByteString continuation,
            boolean release) throws Exception {
        HistoryReadValueId node = new HistoryReadValueId(id, null, QualifiedName.NULL, continuation);
        HistoryReadResponse response = client.request(h -> new HistoryReadRequest(h, ExtensionObject.of(details),
                TimestampsToReturn.Both, release, new HistoryReadValueId[] {node}), HistoryReadResponse.class)
                .get(connection.timeout().toMillis() * 2, TimeUnit.MILLISECONDS);
        if (response.results() == null || response.results().length != 1) {
            throw CliException.badStatus("HistoryRead of " + id + " answered " + (response.results() == null ? 0
                    : response.results().length) + " results for 1 node");
        }
        return response.results()[0];
    }

    private static DataValue[] values(HistoryReadResult result) {
        ExtensionObject data = result.historyData();
        if (data == null || data.isNull() || !data.isDecoded() || !(data.decoded() instanceof HistoryData history)
                || history.dataValues() == null) {
            return new DataValue[0];
        }
        return history.dataValues();
    }

    private static void print(Output output, OpcUaClient client, String name, DataValue value) {
        if (output.json()) {
            output.json(new JsonLine(client.namespaces().uris()).string("nodeId", name).dataValue(value));
            return;
        }
        output.line(csv(name) + "," + time(value.sourceTimestamp()) + "," + time(value.serverTimestamp()) + ","
                + csv(ValueText.format(value.value())) + "," + value.statusCode().name());
    }

    private static String time(DateTime time) {
        return time == null || time.isNull() ? "" : time.toInstant().toString();
    }

    /** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
    private static String csv(String field) {
        if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0 && field.indexOf('\r') < 0) {
            return field;
        }
        return '"' + field.replace("\"", "\"\"") + '"';
    }
}
