package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.concurrent.CompletableFuture;

/**
 * Whether nodes offer history to a request, from their attributes, read in one batch through the node
 * managers whatever manager owns them (Part 3, 8.57 AccessLevel and 8.59 EventNotifier bits HistoryRead
 * 0x04 and HistoryWrite 0x08):
 *
 * <ul>
 *   <li>data: a node that is not known is BadNodeIdUnknown, one without AccessLevel (not a Variable)
 *       BadHistoryOperationUnsupported, an AccessLevel without the bit BadNotReadable (read) or
 *       BadNotWritable (update), a UserAccessLevel without it BadUserAccessDenied (Part 4, 5.10.3 and
 *       5.10.5);</li>
 *   <li>events: a node without EventNotifier is BadHistoryOperationUnsupported, one without the bit
 *       BadNotReadable or BadNotWritable.</li>
 * </ul>
 */
final class HistoryAccess {

    static final int HISTORY_READ = 0x04;
    static final int HISTORY_WRITE = 0x08;

    private final NodeManagers managers;

    HistoryAccess(NodeManagers managers) {
        this.managers = managers;
    }

    /** Per node, Good or the status that refuses it. */
    CompletableFuture<int[]> check(OperationContext context, NodeId[] nodes, boolean events, boolean write) {
        int perNode = events ? 1 : 2;
        ReadValueId[] reads = new ReadValueId[nodes.length * perNode];
        for (int i = 0; i < nodes.length; i++) {
            if (events) {
                reads[i] = new ReadValueId(nodes[i], AttributeIds.EventNotifier, null, QualifiedName.NULL);
            } else {
                reads[2 * i] = new ReadValueId(nodes[i], AttributeIds.AccessLevel, null, QualifiedName.NULL);
                reads[2 * i + 1] = new ReadValueId(nodes[i], AttributeIds.UserAccessLevel, null, QualifiedName.NULL);
            }
        }
        int bit = write ? HISTORY_WRITE : HISTORY_READ;
        int missing = write ? StatusCodes.BadNotWritable : StatusCodes.BadNotReadable;
        return managers.read(context, reads, 0, TimestampsToReturn.Neither).thenApply(values -> {
            int[] statuses = new int[nodes.length];
            for (int i = 0; i < nodes.length; i++) {
                DataValue level = values[i * perNode];
                if (level.statusCode().value() == StatusCodes.BadNodeIdUnknown) {
                    statuses[i] = StatusCodes.BadNodeIdUnknown;
                } else if (!level.statusCode().isGood() || !(level.value().value() instanceof Number)) {
                    statuses[i] = StatusCodes.BadHistoryOperationUnsupported;
                } else if ((((Number) level.value().value()).intValue() & bit) == 0) {
                    statuses[i] = missing;
                } else if (!events && !hasBit(values[i * perNode + 1], bit)) {
                    statuses[i] = StatusCodes.BadUserAccessDenied;
                } else {
                    statuses[i] = StatusCodes.Good;
                }
            }
            return statuses;
        });
    }

    private static boolean hasBit(DataValue value, int bit) {
        return value.statusCode().isGood() && value.value().value() instanceof Number n && (n.intValue() & bit) != 0;
    }
}
