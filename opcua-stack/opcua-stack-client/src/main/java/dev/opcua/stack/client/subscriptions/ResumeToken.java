package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.DataChangeTrigger;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.DataChangeFilter;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a new client process needs to resume a durable subscription (Part 4, 6.8) that an earlier one created:
 * its SubscriptionId, the parameters (asked for and revised) and, per data item, the client handle the server
 * reports it with and what it monitors; the server knows the handles (GetMonitoredItems, Part 5, 9.1) but not
 * which node an application meant by each. Take it with {@link ClientSubscription#resumeToken()} or
 * {@link ClientSubscriptions#detach}, keep {@link #encode()} (a few lines of text) where the next process finds
 * it, and give {@link #decode} of it to {@link ClientSubscriptions#resume}.
 *
 * @param deliveredSequenceNumber the sequence number of the last NotificationMessage handed to the listeners
 *        when the token was taken, 0 when unknown: on resume, what the server still holds up to it is
 *        acknowledged and not delivered again, what it holds beyond is fetched with Republish; with 0 everything
 *        it still holds is delivered (at least once)
 * @param items the data items; event items are not resumed
 */
public record ResumeToken(long subscriptionId, SubscriptionParameters parameters, double revisedPublishingInterval,
        long revisedLifetimeCount, long revisedMaxKeepAliveCount, long durableLifetimeHours,
        long deliveredSequenceNumber, List<Item> items) {

    private static final String HEADER = "opcua-resume-token 1";

    public ResumeToken {
        if (subscriptionId <= 0 || subscriptionId > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("subscriptionId must be a UInt32 above 0: " + subscriptionId);
        }
        Objects.requireNonNull(parameters, "parameters");
        items = List.copyOf(items);
        if (items.stream().map(Item::clientHandle).distinct().count() != items.size()) {
            throw new IllegalArgumentException("client handles must be unique in a resume token");
        }
    }

    /**
     * A data item of the subscription: the client handle it was created with and the request that created it
     * (re-created from this when the server no longer has it).
     *
     * @param filter the DataChangeFilter, or null
     */
    public record Item(int clientHandle, NodeId node, long attributeId, String indexRange, double samplingInterval,
            long queueSize, boolean discardOldest, DataChangeFilter filter, MonitoringMode monitoringMode) {

        public Item {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(monitoringMode, "monitoringMode");
        }

        /** The request that creates this item again, its values going to {@code listener}. */
        public DataItemRequest request(DataChangeListener listener) {
            return new DataItemRequest(node, attributeId, indexRange, samplingInterval, queueSize, discardOldest, filter,
                    monitoringMode, listener);
        }
    }

    /** The token as lines of text, for a file or a database column; {@link #decode} reads it back. */
    public String encode() {
        StringBuilder sb = new StringBuilder(64 + 64 * items.size());
        SubscriptionParameters p = parameters;
        sb.append(HEADER).append('\n');
        sb.append("subscription=").append(subscriptionId).append('\n');
        sb.append("parameters=").append(p.publishingInterval()).append(',').append(p.lifetimeCount()).append(',')
                .append(p.maxKeepAliveCount()).append(',').append(p.maxNotificationsPerPublish()).append(',')
                .append(p.priority()).append(',').append(p.publishingEnabled()).append(',')
                .append(p.durableLifetimeHours()).append('\n');
        sb.append("revised=").append(revisedPublishingInterval).append(',').append(revisedLifetimeCount).append(',')
                .append(revisedMaxKeepAliveCount).append(',').append(durableLifetimeHours).append('\n');
        sb.append("delivered=").append(deliveredSequenceNumber).append('\n');
        for (Item i : items) {
            DataChangeFilter f = i.filter();
            sb.append("item=").append(i.clientHandle()).append(',').append(i.attributeId()).append(',')
                    .append(i.samplingInterval()).append(',').append(i.queueSize()).append(',')
                    .append(i.discardOldest()).append(',').append(i.monitoringMode().value()).append(',')
                    .append(f == null ? "-" : f.trigger().value() + ":" + f.deadbandType() + ":" + f.deadbandValue())
                    .append(',').append(i.indexRange() == null ? "-" : escape(i.indexRange())).append(',')
                    .append(escape(i.node().toString())).append('\n');
        }
        return sb.toString();
    }

    /**
     * Reads {@link #encode()}'s text.
     *
     * @throws IllegalArgumentException naming the line that is wrong
     */
    public static ResumeToken decode(String text) {
        String[] lines = Objects.requireNonNull(text, "text").strip().split("\\R");
        if (lines.length < 5 || !lines[0].equals(HEADER)) {
            throw new IllegalArgumentException("not a resume token (it starts with '" + HEADER + "' and has at "
                    + "least 5 lines): " + (lines.length == 0 ? "" : lines[0]));
        }
        String line = null;
        try {
            line = lines[1];
            long id = Long.parseLong(value(line, "subscription"));
            line = lines[2];
            String[] p = value(line, "parameters").split(",", -1);
            long hours = Long.parseLong(p[6]);
            SubscriptionParameters parameters = new SubscriptionParameters(Double.parseDouble(p[0]),
                    Long.parseLong(p[1]), Long.parseLong(p[2]), Long.parseLong(p[3]), Integer.parseInt(p[4]),
                    Boolean.parseBoolean(p[5]), hours > 0 ? Duration.ofHours(hours) : null);
            line = lines[3];
            String[] r = value(line, "revised").split(",", -1);
            line = lines[4];
            long delivered = Long.parseLong(value(line, "delivered"));
            List<Item> items = new ArrayList<>(lines.length - 5);
            for (int n = 5; n < lines.length; n++) {
                line = lines[n];
                items.add(item(value(line, "item").split(",", 9)));
            }
            return new ResumeToken(id, parameters, Double.parseDouble(r[0]), Long.parseLong(r[1]),
                    Long.parseLong(r[2]), Long.parseLong(r[3]), delivered, items);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("malformed resume token line '" + line + "': " + e.getMessage(), e);
        }
    }

    private static Item item(String[] f) {
        if (f.length != 9) {
            throw new IllegalArgumentException("an item has 9 fields, not " + f.length);
        }
        DataChangeFilter filter = null;
        if (!f[6].equals("-")) {
            String[] d = f[6].split(":", -1);
            filter = new DataChangeFilter(DataChangeTrigger.fromValue(Integer.parseInt(d[0])), Long.parseLong(d[1]),
                    Double.parseDouble(d[2]));
        }
        return new Item(Integer.parseInt(f[0]), NodeId.parse(unescape(f[8])), Long.parseLong(f[1]),
                f[7].equals("-") ? null : unescape(f[7]), Double.parseDouble(f[2]), Long.parseLong(f[3]),
                Boolean.parseBoolean(f[4]), filter, MonitoringMode.fromValue(Integer.parseInt(f[5])));
    }

    private static String value(String line, String key) {
        if (!line.startsWith(key + "=")) {
            throw new IllegalArgumentException("expected '" + key + "='");
        }
        return line.substring(key.length() + 1);
    }

    private static String escape(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String unescape(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
