package dev.opcua.stack.client.subscriptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Brings a Hot-redundancy mirror (Part 4, 6.6.2.4.5.4), a subscription on a backup server's monitor session
 * with publishing disabled, in step with the client's subscription it mirrors: the subscription's
 * parameters (ModifySubscription), the items (created with the same client handles, requests and
 * monitoring modes, or deleted), each item's sampling interval, queue, discard policy and filter
 * (ModifyMonitoredItems), monitoring mode (SetMonitoringMode) and triggering links (SetTriggering). Only
 * what differs is sent. Failures are the caller's to log: the next check tries again.
 */
final class HotMirror {

    private HotMirror() {
    }

    /** The parameters a mirror of {@code original} has: the same, publishing disabled, not durable. */
    static SubscriptionParameters parametersOf(ClientSubscription original) {
        return original.parameters().withPublishingEnabled(false).durable(null);
    }

    static CompletableFuture<Void> sync(ClientSubscription mirror, ClientSubscription original) {
        SubscriptionParameters wanted = parametersOf(original);
        CompletableFuture<Void> done = wanted.equals(mirror.parameters()) ? CompletableFuture.completedFuture(null)
                : mirror.modify(wanted);
        List<ClientMonitoredItem> originals = original.items().stream().filter(i -> i.serverId() != 0).toList();
        Set<Integer> want = originals.stream().map(ClientMonitoredItem::clientHandle).collect(Collectors.toSet());
        Set<Integer> have = mirror.items().stream().map(ClientMonitoredItem::clientHandle).collect(Collectors.toSet());
        List<ClientMonitoredItem> extra = mirror.items().stream().filter(i -> !want.contains(i.clientHandle())).toList();
        List<ClientMonitoredItem> missing = new ArrayList<>();
        for (ClientMonitoredItem o : originals) {
            if (!have.contains(o.clientHandle())) {
                missing.add(new ClientMonitoredItem(mirror, o));
            }
        }
        if (!extra.isEmpty()) {
            done = done.thenCompose(ok -> mirror.deleteItems(extra));
        }
        if (!missing.isEmpty()) {
            done = done.thenCompose(ok -> mirror.createMirrorItems(missing)).thenApply(ok -> null);
        }
        return done.thenCompose(ok -> items(mirror, originals));
    }

    /** Each item's parameters and monitoring mode, then the triggering links, where they differ. */
    private static CompletableFuture<Void> items(ClientSubscription mirror, List<ClientMonitoredItem> originals) {
        Map<Integer, ClientMonitoredItem> mirrored = mirror.items().stream().filter(i -> i.serverId() != 0)
                .collect(Collectors.toMap(ClientMonitoredItem::clientHandle, Function.identity()));
        List<CompletableFuture<?>> work = new ArrayList<>();
        for (ClientMonitoredItem o : originals) {
            ClientMonitoredItem m = mirrored.get(o.clientHandle());
            if (m == null) {
                continue;
            }
            if (o.samplingInterval() != m.samplingInterval() || o.queueSize() != m.queueSize()
                    || o.discardOldest() != m.discardOldest() || !Objects.equals(o.filter(), m.filter())) {
                work.add(m.modify(o.samplingInterval(), o.queueSize(), o.discardOldest(), o.filter()));
            }
            if (o.monitoringMode() != m.monitoringMode()) {
                work.add(m.setMonitoringMode(o.monitoringMode()));
            }
            Set<Integer> links = handles(o.triggeredItems());
            Set<Integer> mirroredLinks = handles(m.triggeredItems());
            List<ClientMonitoredItem> add = links.stream().filter(h -> !mirroredLinks.contains(h)).map(mirrored::get)
                    .filter(Objects::nonNull).toList();
            List<ClientMonitoredItem> remove = m.triggeredItems().stream()
                    .filter(l -> !links.contains(l.clientHandle())).toList();
            if (!add.isEmpty() || !remove.isEmpty()) {
                work.add(mirror.setTriggering(m, add, remove));
            }
        }
        return CompletableFuture.allOf(work.toArray(CompletableFuture[]::new));
    }

    private static Set<Integer> handles(List<ClientMonitoredItem> items) {
        return items.stream().map(ClientMonitoredItem::clientHandle).collect(Collectors.toSet());
    }
}
