package dev.opcua.spring.boot.console;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StandardDataTypes;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.AccessLevelType;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.nodes.BrowseOperation;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.services.view.ReferenceTypeTree;
import java.lang.reflect.Array;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The console's {@link ConsoleAddressSpace} of a server: browses and reads its address space in-process,
 * through its {@link NodeManagers} as the View and Attribute services do (Part 4, 5.8.2 and 5.11.2), with
 * {@link OperationContext#INTERNAL}: no network client, no session, no request queue. A browse returns the
 * forward hierarchical references of a node (Organizes, HasComponent, HasProperty ... as a client's tree
 * shows them) with each target's NodeClass, BrowseName and DisplayName; a read returns a Variable's Value,
 * DataType and whether its AccessLevel allows writing; a write sets its Value from text typed for its DataType.
 *
 * <p>Every result is a future completed by the node managers: in-memory ones answer at once, an
 * asynchronous one on its own thread; it fails with {@link java.util.concurrent.TimeoutException} after
 * the timeout, so that a request thread never waits on a node manager.
 */
public final class AddressSpaceBrowser implements ConsoleAddressSpace {

    private static final NodeId HIERARCHICAL = NodeId.ns0(NodeIds.HierarchicalReferences);
    /** Array values are shown up to this many elements. */
    private static final int MAX_ELEMENTS = 20;

    private final NodeManagers managers;
    private final ReferenceTypeTree referenceTypes;
    private final Duration timeout;

    /** @param timeout how long a browse or read may take before its future fails */
    public AddressSpaceBrowser(OpcUaServer server, Duration timeout) {
        this.managers = server.nodeManagers();
        this.referenceTypes = server.referenceTypes();
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * The children of a node: the targets of its forward hierarchical references, in the order its node
     * manager gives them, each once.
     *
     * The future fails with a {@link ConsoleNodeException} when the node cannot be browsed.
     */
    @Override
    public CompletableFuture<List<ConsoleNode>> browse(NodeId nodeId) {
        return managers.references(OperationContext.INTERNAL, new NodeId[] { nodeId })
                .thenCompose(operations -> {
                    BrowseOperation operation = operations[0];
                    if (operation.status() != StatusCodes.Good) {
                        throw new ConsoleNodeException(nodeId, operation.status());
                    }
                    NodeId[] children = children(operation.references()).toArray(new NodeId[0]);
                    return describe(children);
                })
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public CompletableFuture<ConsoleValue> read(NodeId nodeId) {
        return current(nodeId).thenApply(current -> value(nodeId, current))
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Writes a Variable's Value (Part 4, 5.11.4) from text typed for its DataType, through its node manager with
     * {@link OperationContext#INTERNAL}: who may write is the console's decision, made before; the node's
     * AccessLevel (CurrentWrite) and DataType are still checked by its node manager. The future fails with an
     * {@link IllegalArgumentException} when the text is no value of the DataType, or the DataType or the current
     * value (an array, a structure) is not one the console writes.
     */
    @Override
    public CompletableFuture<ConsoleWrite> write(NodeId nodeId, String text) {
        return current(nodeId).thenCompose(current -> {
            Variant typed = ConsoleValueParser.parse(text, writtenType(nodeId, current));
            WriteValue item = new WriteValue(nodeId, AttributeIds.Value, null, DataValue.of(typed));
            return managers.write(OperationContext.INTERNAL, new WriteValue[] { item })
                    .thenApply(statuses -> new ConsoleWrite(nodeId.toString(), current.dataTypeName(),
                            text(current.value().value() == null ? null : current.value().value().value()),
                            text(typed.value()), StatusCodes.name(statuses[0].value())));
        }).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The built-in type a write of the node must carry: its DataType's encoding, else the current value's. */
    private static BuiltinType writtenType(NodeId nodeId, Current current) {
        Variant value = current.value().value();
        if (value != null && value.isArray()) {
            throw new IllegalArgumentException(nodeId + " holds an array: the console writes scalars only");
        }
        BuiltinType encoding = current.dataType() == null ? null : StandardDataTypes.encodingOf(current.dataType());
        if (encoding == null) {
            throw new IllegalArgumentException(nodeId + " has the DataType " + current.dataTypeName()
                    + ", a structure: the console writes numbers, Boolean, String, LocalizedText and DateTime");
        }
        if (encoding == BuiltinType.Variant) { // Number, BaseDataType ...: the type the value has now
            if (value == null || value.isNull()) {
                throw new IllegalArgumentException(nodeId + " has the abstract DataType " + current.dataTypeName()
                        + " and no value to take the type from");
            }
            return value.type();
        }
        return encoding;
    }

    /** A Variable's Value, DataType (with its BrowseName) and AccessLevel, read together. */
    private CompletableFuture<Current> current(NodeId nodeId) {
        ReadValueId[] reads = {
            new ReadValueId(nodeId, AttributeIds.Value, null, QualifiedName.NULL),
            new ReadValueId(nodeId, AttributeIds.DataType, null, QualifiedName.NULL),
            new ReadValueId(nodeId, AttributeIds.AccessLevel, null, QualifiedName.NULL) };
        return managers.read(OperationContext.INTERNAL, reads, 0, TimestampsToReturn.Both)
                .thenCompose(values -> {
                    Object accessLevel = values[2].value().value();
                    boolean writable = accessLevel instanceof Number n
                            && (n.longValue() & AccessLevelType.CurrentWrite) != 0;
                    Object dataType = values[1].value().value();
                    if (!(dataType instanceof NodeId type)) {
                        return CompletableFuture.completedFuture(new Current(values[0], null, null, writable));
                    }
                    // the DataType's BrowseName: "Double" reads better than "i=11"
                    ReadValueId name = new ReadValueId(type, AttributeIds.BrowseName, null, QualifiedName.NULL);
                    return managers.read(OperationContext.INTERNAL, new ReadValueId[] { name }, 0,
                            TimestampsToReturn.Neither).thenApply(names -> {
                                Object browseName = names[0].value().value();
                                return new Current(values[0], type,
                                        browseName instanceof QualifiedName q ? q.name() : type.toString(), writable);
                            });
                });
    }

    private record Current(DataValue value, NodeId dataType, String dataTypeName, boolean writable) {
    }

    /** The local targets of the forward hierarchical references, each once. */
    private Set<NodeId> children(UaReference[] references) {
        Set<NodeId> children = new LinkedHashSet<>();
        if (references != null) {
            for (UaReference r : references) {
                if (r.forward() && r.targetId().isLocal()
                        && referenceTypes.matches(r.referenceTypeId(), HIERARCHICAL, true)) {
                    children.add(r.targetId().nodeId());
                }
            }
        }
        return children;
    }

    /** NodeClass, BrowseName and DisplayName of each node in one batched read, and whether it has children. */
    private CompletableFuture<List<ConsoleNode>> describe(NodeId[] nodes) {
        if (nodes.length == 0) {
            return CompletableFuture.completedFuture(List.of());
        }
        ReadValueId[] reads = new ReadValueId[nodes.length * 3];
        for (int i = 0; i < nodes.length; i++) {
            reads[3 * i] = new ReadValueId(nodes[i], AttributeIds.NodeClass, null, QualifiedName.NULL);
            reads[3 * i + 1] = new ReadValueId(nodes[i], AttributeIds.BrowseName, null, QualifiedName.NULL);
            reads[3 * i + 2] = new ReadValueId(nodes[i], AttributeIds.DisplayName, null, QualifiedName.NULL);
        }
        return managers.read(OperationContext.INTERNAL, reads, 0, TimestampsToReturn.Neither)
                .thenCombine(managers.references(OperationContext.INTERNAL, nodes), (values, grandchildren) -> {
                    List<ConsoleNode> result = new ArrayList<>(nodes.length);
                    for (int i = 0; i < nodes.length; i++) {
                        Object nodeClass = values[3 * i].value().value();
                        Object browseName = values[3 * i + 1].value().value();
                        Object displayName = values[3 * i + 2].value().value();
                        NodeClass known = nodeClass instanceof Integer n ? NodeClass.fromValue(n) : null;
                        result.add(new ConsoleNode(nodes[i].toString(),
                                browseName instanceof QualifiedName q ? q.name() : null,
                                displayName instanceof LocalizedText t ? t.text() : null,
                                known == null ? NodeClass.Unspecified.name() : known.name(),
                                !children(grandchildren[i].references()).isEmpty()));
                    }
                    return result;
                });
    }

    private static ConsoleValue value(NodeId nodeId, Current current) {
        DataValue value = current.value();
        Variant variant = value.value();
        Object raw = variant == null ? null : variant.value();
        Double number = raw instanceof Number n && !variant.isArray() ? n.doubleValue() : null;
        return new ConsoleValue(nodeId.toString(), text(raw), number, current.dataTypeName(),
                StatusCodes.name(value.statusCode().value()), instant(value.sourceTimestamp()),
                instant(value.serverTimestamp()), current.writable());
    }

    /** A value as a person reads it: texts and names without their wrapping, arrays cut after a few elements. */
    static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value.getClass().isArray()) {
            int length = Array.getLength(value);
            StringJoiner joined = new StringJoiner(", ", "[", length > MAX_ELEMENTS ? ", ... " + length + " in all]" : "]");
            for (int i = 0; i < Math.min(length, MAX_ELEMENTS); i++) {
                joined.add(String.valueOf(text(Array.get(value, i))));
            }
            return joined.toString();
        }
        if (value instanceof LocalizedText t) {
            return t.text();
        }
        if (value instanceof QualifiedName q) {
            return q.name();
        }
        if (value instanceof DateTime d) {
            return d.isNull() ? null : d.toInstant().toString();
        }
        return value.toString();
    }

    private static Instant instant(DateTime time) {
        return time == null || time.isNull() ? null : time.toInstant();
    }
}
