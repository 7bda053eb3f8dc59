package dev.opcua.cli.commands;

import dev.opcua.cli.CliException;
import dev.opcua.cli.ClientCommand;
import dev.opcua.cli.Durations;
import dev.opcua.cli.DurationConverter;
import dev.opcua.cli.ExitCodes;
import dev.opcua.cli.JsonLine;
import dev.opcua.cli.Output;
import dev.opcua.cli.values.NodeIdText;
import dev.opcua.cli.values.ValueText;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.subscriptions.ClientMonitoredItem;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.EventFilters;
import dev.opcua.stack.client.subscriptions.EventItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * A subscription (Part 4, 5.13) with a data item per node (5.12), or with {@code --events} an event item per
 * notifier (EventFilter of Time, Severity, SourceName, Message, EventType; Part 4, 7.22.3), until Ctrl-C,
 * {@code --count} notifications or {@code --duration}. On a terminal each item has a line redrawn in place; piped,
 * each notification is a line of its own (or a JSON object).
 */
@Command(name = "subscribe", description = "Subscribe to values (or --events) and print them until Ctrl-C: a live line "
        + "per item on a terminal, a line per notification when piped.")
public final class SubscribeCommand extends ClientCommand {

    private static final String SERVER_OBJECT = "i=2253";
    private static final String[] EVENT_FIELDS = {"Time", "Severity", "SourceName", "Message", "EventType"};

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "NODE",
            description = "Variables to watch; with --events the notifiers (default i=2253, the Server object).")
    List<String> nodes = new ArrayList<>();

    @Option(names = {"-i", "--interval"}, paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.class,
            description = "Sampling and publishing interval (default ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--events", description = "Events of the notifiers instead of values.")
    boolean events;

    @Option(names = "--count", paramLabel = "N", defaultValue = "0",
            description = "Stop after N notifications (default: until Ctrl-C).")
    long count;

    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Stop after this long (default: until Ctrl-C).")
    Duration duration;

    private final long started = System.nanoTime();
    private final AtomicLong received = new AtomicLong();
    private CountDownLatch enough;
    private LiveLines live;

    @Override
    protected void prepare() {
        if (nodes.isEmpty()) {
            if (!events) {
                throw CliException.usage("which variables? give one or more node ids (or --events for the Server's "
                        + "events)");
            }
            nodes = List.of(SERVER_OBJECT);
        }
        nodes.forEach(NodeIdText::check);
        if (count < 0) {
            throw CliException.usage("--count must be 0 (no limit) or more");
        }
    }

    @Override
    protected int run(OpcUaClient client, Output output) throws Exception {
        long wait = connection.timeout().toMillis() * 2;
        enough = new CountDownLatch(1);
        List<NodeId> ids = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String text : nodes) {
            NodeId id = NodeIdText.resolve(client, text);
            ids.add(id);
            names.add(NodeIdText.format(client, id));
        }
        live = output.terminal() && !output.json() && !events ? new LiveLines(output, names) : null;
        double ms = interval.toMillis();
        ClientSubscription subscription = client.createSubscription(new SubscriptionParameters(ms, 60, 10, 0, 0, true))
                .get(wait, TimeUnit.MILLISECONDS);
        List<ClientMonitoredItem> items;
        if (events) {
            List<EventItemRequest> requests = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                String name = names.get(i);
                requests.add(EventItemRequest.of(ids.get(i), EventFilters.select(EVENT_FIELDS),
                        (item, fields) -> onEvent(client, output, name, fields)));
            }
            items = subscription.createEventItems(requests).get(wait, TimeUnit.MILLISECONDS);
        } else {
            List<DataItemRequest> requests = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                int index = i;
                requests.add(DataItemRequest.of(ids.get(i), ms, (item, value) -> onValue(output, index,
                        names.get(index), value)));
            }
            items = subscription.createDataItems(requests).get(wait, TimeUnit.MILLISECONDS);
        }
        boolean allCreated = true;
        for (int i = 0; i < items.size(); i++) {
            StatusCode status = items.get(i).status();
            if (status.isBad()) {
                allCreated = false;
                output.error(names.get(i) + ": " + status.name() + " (not monitored)");
            }
        }
        if (!allCreated && items.stream().allMatch(item -> item.status().isBad())) {
            return ExitCodes.BAD_STATUS;
        }
        awaitEnd();
        output.clearProgress();
        if (!output.json()) {
            output.note(received.get() + " notifications in " + Durations.format(Duration.ofNanos(
                    System.nanoTime() - started)));
        }
        return allCreated ? ExitCodes.OK : ExitCodes.BAD_STATUS;
    }

    /** Until Ctrl-C, --count notifications or --duration. */
    private void awaitEnd() throws InterruptedException {
        long deadline = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
        while (!stop.requested() && enough.getCount() > 0 && System.nanoTime() < deadline) {
            long left = Math.min(200, Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            enough.await(left, TimeUnit.MILLISECONDS);
        }
    }

    private void counted() {
        if (count > 0 && received.incrementAndGet() >= count) {
            enough.countDown();
        } else if (count == 0) {
            received.incrementAndGet();
        }
    }

    private void onValue(Output output, int index, String name, DataValue value) {
        if (enough.getCount() == 0) {
            return;
        }
        if (output.json()) {
            output.json(new JsonLine(null).string("nodeId", name).dataValue(value));
        } else if (live != null) {
            live.update(index, line(output, name, value));
        } else {
            output.line(line(output, name, value));
        }
        counted();
    }

    private static String line(Output output, String name, DataValue value) {
        DateTime time = value.sourceTimestamp() != null && !value.sourceTimestamp().isNull() ? value.sourceTimestamp()
                : value.serverTimestamp();
        String when = time == null || time.isNull() ? "" : output.dim(time.toInstant().toString()) + "  ";
        return when + output.cyan(name) + " = " + (value.statusCode().isBad() ? "" : ValueText.format(value.value())
                + "  ") + output.status(value.statusCode());
    }

    private void onEvent(OpcUaClient client, Output output, String notifier, Variant[] fields) {
        if (enough.getCount() == 0) {
            return;
        }
        if (output.json()) {
            JsonLine line = new JsonLine(client.namespaces().uris()).string("notifier", notifier);
            for (int i = 0; i < EVENT_FIELDS.length && i < fields.length; i++) {
                String field = Character.toLowerCase(EVENT_FIELDS[i].charAt(0)) + EVENT_FIELDS[i].substring(1);
                line.value(field, fields[i]);
            }
            output.json(line);
        } else {
            output.line(output.dim(ValueText.format(fields[0])) + "  " + output.yellow("severity " + ValueText.format(
                    fields[1])) + "  " + output.bold(ValueText.format(fields[2])) + "  " + ValueText.format(fields[3])
                    + "  " + output.dim(ValueText.format(fields[4])));
        }
        counted();
    }

    /** One line per item, redrawn in place with ANSI cursor movement: the terminal form of a subscription. */
    private static final class LiveLines {

        private final Output output;
        private final String[] lines;

        LiveLines(Output output, List<String> names) {
            this.output = output;
            this.lines = new String[names.size()];
            for (int i = 0; i < lines.length; i++) {
                lines[i] = names.get(i) + " = ...";
                output.raw(lines[i] + "\n");
            }
        }

        synchronized void update(int index, String line) {
            lines[index] = line;
            StringBuilder redraw = new StringBuilder("\u001b[" + lines.length + "A");
            for (String l : lines) {
                redraw.append("\r\u001b[2K").append(l).append('\n');
            }
            output.raw(redraw.toString());
        }
    }
}
