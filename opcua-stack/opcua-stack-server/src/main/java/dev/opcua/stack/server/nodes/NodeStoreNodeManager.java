package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RolePermissionType;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.server.addressspace.MethodNode;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.UserAccess;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A node manager whose nodes live in memory, in a {@link NodeStore}: reads any attribute, writes
 * the Value of variables (Part 4, 5.11.2 and 5.11.4), gives the references of its nodes to Browse.
 *
 * <p>Rules applied: an unknown node is BadNodeIdUnknown, an attribute its node class lacks
 * BadAttributeIdInvalid; reading a Value needs the CurrentRead bit of the UserAccessLevel
 * (BadNotReadable), writing it the CurrentWrite bit (BadNotWritable), other attributes are not
 * writable (BadNotWritable); a written value must fit the DataType and ValueRank (BadTypeMismatch);
 * a DataEncoding other than "Default Binary" on a Value is BadDataEncodingUnsupported and any on
 * another attribute BadDataEncodingInvalid; TimestampsToReturn selects the timestamps of Value reads,
 * the server timestamp being the time of the read. A write with an IndexRange replaces that range
 * of the current value.
 *
 * <p>Roles (Part 3, 4.9 and 5.2.9): each node's permission table (its own or the store's default,
 * {@link NodeStore#permissionsOf}) is checked against the session's role mask: reading a Value
 * needs Read, writing it Write (else BadUserAccessDenied), browsing a node Browse (else it is
 * hidden); UserAccessLevel, UserExecutable and UserRolePermissions are answered for the session.
 */
public class NodeStoreNodeManager implements SyncNodeManager {

    /** AccessLevel bits (Part 3, 8.57). */
    static final int CURRENT_READ = 0x01;
    static final int CURRENT_WRITE = 0x02;
    private static final String DEFAULT_BINARY = "Default Binary";
    private static final NodeId HAS_COMPONENT = NodeId.ns0(NodeIds.HasComponent);

    private final List<String> namespaceUris;
    private final NodeStore store;
    private final boolean nonBlocking;

    /** A manager that may block: its nodes' value sources are the application's, see {@link #isNonBlocking()}. */
    public NodeStoreNodeManager(List<String> namespaceUris, NodeStore store) {
        this(namespaceUris, store, false);
    }

    /**
     * @param nonBlocking whether the value sources of the store's nodes, and {@link #acceptWrite} of a
     *     subclass, return at once without waiting, see {@link NodeManager#isNonBlocking()}
     */
    public NodeStoreNodeManager(List<String> namespaceUris, NodeStore store, boolean nonBlocking) {
        this.namespaceUris = List.copyOf(namespaceUris);
        this.store = store;
        this.nonBlocking = nonBlocking;
    }

    @Override
    public boolean isNonBlocking() {
        return nonBlocking;
    }

    @Override
    public List<String> namespaceUris() {
        return namespaceUris;
    }

    public NodeStore store() {
        return store;
    }

    /**
     * Whether the NodeManagement services (Part 4, 5.7) may add nodes to this manager's store and delete
     * them, and change its nodes' references. The default, false, keeps a store that belongs to code
     * (namespace 0, a condition manager) as it is: the services answer BadNotSupported.
     */
    public boolean acceptsNodeManagement() {
        return false;
    }

    @Override
    public void readNow(OperationContext context, List<ReadOperation> operations) {
        DateTime now = DateTime.currentMillisecond();
        for (int i = 0, n = operations.size(); i < n; i++) { // indexed: no iterator per request
            ReadOperation operation = operations.get(i);
            operation.complete(read(context, operation, now));
        }
    }

    private DataValue read(OperationContext context, ReadOperation operation, DateTime now) {
        ReadValueId item = operation.item();
        UaNode node = store.get(item.nodeId());
        if (node == null) {
            return status(StatusCodes.BadNodeIdUnknown);
        }
        int attributeId = (int) item.attributeId();
        try {
            NumericRange range = NumericRange.parse(item.indexRange());
            QualifiedName encoding = item.dataEncoding();
            boolean encodingGiven = encoding != null && !encoding.isNull();
            if (attributeId == AttributeIds.Value && node instanceof VariableNode) {
                VariableNode variable = (VariableNode) node;
                if ((variable.userAccessLevel() & CURRENT_READ) == 0) {
                    return status(StatusCodes.BadNotReadable);
                }
                if (!context.allows(store.permissionsOf(node), Permission.READ)) {
                    return status(StatusCodes.BadUserAccessDenied);
                }
                if (encodingGiven && !(encoding.namespaceIndex() == 0 && DEFAULT_BINARY.equals(encoding.name()))) {
                    return status(StatusCodes.BadDataEncodingUnsupported);
                }
                DataValue value = variable.value();
                Variant v = range == null ? value.value() : range.select(value.value());
                return withTimestamps(value, v, operation.timestampsToReturn(), now);
            }
            if (encodingGiven) {
                return status(StatusCodes.BadDataEncodingInvalid);
            }
            Variant v = userAttribute(context, node, attributeId);
            if (v == null) {
                v = node.attribute(attributeId);
            }
            if (v == null) {
                return status(StatusCodes.BadAttributeIdInvalid);
            }
            return DataValue.of(range == null ? v : range.select(v));
        } catch (UaException e) {
            return DataValue.ofStatus(e.statusCode());
        }
    }

    /**
     * Values of variables are sampled directly: the source hands out the stored {@link DataValue}
     * (or the value source's), so an unchanged value is the same instance. Only the Value attribute
     * without index range or data encoding; anything else is sampled through {@link #read}.
     */
    @Override
    public SampleSource sampleSource(ReadValueId item) {
        boolean plain = (item.indexRange() == null || item.indexRange().isEmpty())
                && (item.dataEncoding() == null || item.dataEncoding().isNull());
        if (item.attributeId() != AttributeIds.Value || !plain || !(store.get(item.nodeId()) instanceof VariableNode)) {
            return null;
        }
        return new StoredValueSource(store, item.nodeId());
    }

    /** Part 4, 5.11.2: the timestamps the client asked for; the server timestamp is the read's. */
    private static DataValue withTimestamps(DataValue stored, Variant value, TimestampsToReturn which, DateTime now) {
        boolean source = which == TimestampsToReturn.Source || which == TimestampsToReturn.Both;
        boolean server = which == TimestampsToReturn.Server || which == TimestampsToReturn.Both;
        return DataValue.of(value, stored.statusCode(), source ? stored.sourceTimestamp() : null,
                source ? stored.sourcePicoseconds() : 0, server ? now : null, 0);
    }

    @Override
    public void writeNow(OperationContext context, List<WriteOperation> operations) {
        // One clock reading per request, as a Read stamps its serverTimestamp: on a virtual machine whose
        // clock is slow to read, a clock call per value is a visible share of a large Write.
        DateTime now = DateTime.currentMillisecond();
        for (int i = 0, n = operations.size(); i < n; i++) { // indexed: no iterator per request
            WriteOperation operation = operations.get(i);
            operation.complete(write(context, operation.item(), now));
        }
    }

    private StatusCode write(OperationContext context, WriteValue item, DateTime now) {
        UaNode node = store.get(item.nodeId());
        if (node == null) {
            return StatusCode.of(StatusCodes.BadNodeIdUnknown);
        }
        int attributeId = (int) item.attributeId();
        if (node.attribute(attributeId) == null) {
            return StatusCode.of(StatusCodes.BadAttributeIdInvalid);
        }
        if (attributeId != AttributeIds.Value || !(node instanceof VariableNode)) {
            return StatusCode.of(StatusCodes.BadNotWritable);
        }
        VariableNode variable = (VariableNode) node;
        if ((variable.userAccessLevel() & CURRENT_WRITE) == 0) {
            return StatusCode.of(StatusCodes.BadNotWritable);
        }
        if (!context.allows(store.permissionsOf(node), Permission.WRITE)) {
            return StatusCode.of(StatusCodes.BadUserAccessDenied);
        }
        DataValue written = item.value() == null ? DataValue.NULL : item.value();
        if (item.indexRange() != null && !item.indexRange().isEmpty()) {
            try {
                // Part 4, 7.27: the written elements replace the range of the current value.
                written = DataValue.of(NumericRange.parse(item.indexRange())
                                .replace(variable.value().value(), written.value()),
                        written.statusCode(), written.sourceTimestamp(), written.sourcePicoseconds(), null, 0);
            } catch (UaException e) {
                return e.statusCode();
            }
        }
        if (!acceptsValue(variable, written.value())) {
            return StatusCode.of(StatusCodes.BadTypeMismatch);
        }
        StatusCode accepted = acceptWrite(context, variable, written);
        if (accepted != null && !accepted.isGood()) {
            return accepted;
        }
        variable.setValue(DataValue.of(written.value(), written.statusCode(),
                written.sourceTimestamp() == null ? now : written.sourceTimestamp(), written.sourcePicoseconds(), now, 0));
        return StatusCode.GOOD;
    }

    /**
     * Whether a written value fits the variable's DataType and ValueRank (Part 4, 5.11.4: otherwise
     * BadTypeMismatch). The default knows the DataTypes of namespace 0 and takes any ExtensionObject
     * for another namespace's; a subclass that knows those types (an imported model) refines it.
     */
    protected boolean acceptsValue(VariableNode variable, Variant value) {
        return DataTypeCheck.accepts(variable.valueAttributes(), value);
    }

    /**
     * Called once a written value passed the access and type checks, before it is stored: a
     * subclass hands it to the application, which may veto it with a bad status (e.g.
     * BadOutOfRange). The default accepts every value.
     *
     * @return Good (or null) to store the value, otherwise the status of the write
     */
    protected StatusCode acceptWrite(OperationContext context, VariableNode variable, DataValue value) {
        return StatusCode.GOOD;
    }

    /**
     * Call (Part 4, 5.11.2) on a manager whose methods have no code: an unknown object is
     * BadNodeIdUnknown, a node that is neither an Object nor an ObjectType BadNodeIdInvalid, a method
     * id that is not a Method component of the object BadMethodInvalid, and one that is (a method of
     * the standard model this server does not implement) BadNotImplemented. A subclass with methods
     * overrides this.
     */
    @Override
    public void callNow(OperationContext context, List<CallOperation> operations) {
        for (CallOperation operation : operations) {
            operation.fail(callStatus(operation));
        }
    }

    private int callStatus(CallOperation operation) {
        UaNode object = store.get(operation.objectId());
        if (object == null) {
            return StatusCodes.BadNodeIdUnknown;
        }
        if (object.nodeClass() != NodeClass.Object && object.nodeClass() != NodeClass.ObjectType) {
            return StatusCodes.BadNodeIdInvalid;
        }
        if (!(store.get(operation.methodId()) instanceof MethodNode)) {
            return StatusCodes.BadMethodInvalid;
        }
        for (UaReference reference : object.references()) {
            if (reference.forward() && reference.targetId().isLocal()
                    && operation.methodId().equals(reference.targetId().nodeId())
                    && HAS_COMPONENT.equals(reference.referenceTypeId())) {
                return StatusCodes.BadNotImplemented;
            }
        }
        return StatusCodes.BadMethodInvalid;
    }

    /**
     * The attributes that depend on the user (Part 3, 5.2.9, 5.2.10, 5.6.2 and 5.7): UserAccessLevel
     * and UserExecutable narrowed by the user's permissions, RolePermissions (for users with
     * ReadRolePermissions, else BadUserAccessDenied) and UserRolePermissions; null for any
     * other attribute.
     */
    private Variant userAttribute(OperationContext context, UaNode node, int attributeId) {
        switch (attributeId) {
            case AttributeIds.UserAccessLevel:
                if (node instanceof VariableNode variable) {
                    return Variant.ofByte(UserAccess.accessLevel(variable.userAccessLevel(),
                            store.permissionsOf(node).permissionsOf(context.roles())));
                }
                return null;
            case AttributeIds.UserExecutable:
                if (node instanceof MethodNode method) {
                    return Variant.ofBoolean(method.userExecutable()
                            && context.allows(store.permissionsOf(node), Permission.CALL));
                }
                return null;
            case AttributeIds.RolePermissions:
                if (!context.allows(store.permissionsOf(node), Permission.READ_ROLE_PERMISSIONS)) {
                    throw new UaException(StatusCodes.BadUserAccessDenied, "no ReadRolePermissions");
                }
                return rolePermissions(store.permissionsOf(node).toRolePermissions());
            case AttributeIds.UserRolePermissions:
                return rolePermissions(store.permissionsOf(node).toRolePermissions(context.roles()));
            default:
                return null;
        }
    }

    private static Variant rolePermissions(RolePermissionType[] entries) {
        ExtensionObject[] values = new ExtensionObject[entries.length];
        for (int i = 0; i < entries.length; i++) {
            values[i] = ExtensionObject.of(entries[i]);
        }
        return Variant.ofArray(BuiltinType.ExtensionObject, values);
    }

    /** The permission table of a node of this manager, for the checks of subclasses. */
    protected final NodePermissions permissionsOf(UaNode node) {
        return store.permissionsOf(node);
    }

    /**
     * Browse: a node the user may not Browse (Part 3, 8.55) is BadNodeIdUnknown and references to
     * such nodes of this store are left out; while no permission restricts anyone, nothing is
     * checked or copied.
     */
    @Override
    public void browseNow(OperationContext context, List<BrowseOperation> operations) {
        boolean restricted = store.isRestricted();
        for (BrowseOperation operation : operations) {
            UaNode node = store.get(operation.nodeId());
            if (node == null || restricted && !context.allows(store.permissionsOf(node), Permission.BROWSE)) {
                operation.fail(StatusCodes.BadNodeIdUnknown);
            } else {
                operation.complete(restricted ? visible(context, node.references()) : node.references());
            }
        }
    }

    /**
     * Describes browse targets from the nodes themselves, without a Read or a browse per target: the
     * same answer as {@link NodeManager#describe}'s default through this manager's Read and browse
     * (a type definition the user may not browse, on a restricted store, is left out as browse would).
     */
    @Override
    public CompletableFuture<Void> describe(OperationContext context, List<DescribeOperation> operations) {
        boolean restricted = store.isRestricted();
        for (int i = 0, n = operations.size(); i < n; i++) { // indexed: no iterator per request
            DescribeOperation operation = operations.get(i);
            UaNode node = store.get(operation.nodeId());
            if (node == null) {
                continue;
            }
            NodeClass nodeClass = node.nodeClass();
            ExpandedNodeId type = null;
            if (operation.typeDefinitionWanted() && (nodeClass == NodeClass.Object || nodeClass == NodeClass.Variable)
                    && (!restricted || browsable(context, node))) {
                type = TargetDescriptions.typeDefinition(node.references());
                if (restricted && type != null && type.isLocal()) {
                    UaNode typeNode = store.get(type.nodeId());
                    type = typeNode == null || browsable(context, typeNode) ? type : null;
                }
            }
            operation.complete(nodeClass, node.browseName(), node.displayName(), type);
        }
        return CompletedCalls.DONE;
    }

    private boolean browsable(OperationContext context, UaNode node) {
        return context.allows(store.permissionsOf(node), Permission.BROWSE);
    }

    /** The references whose local targets the user may browse; the same array when all are. */
    private UaReference[] visible(OperationContext context, UaReference[] references) {
        List<UaReference> kept = null;
        for (int i = 0; i < references.length; i++) {
            UaReference reference = references[i];
            UaNode target = reference.targetId().isLocal() ? store.get(reference.targetId().nodeId()) : null;
            boolean hidden = target != null && !context.allows(store.permissionsOf(target), Permission.BROWSE);
            if (hidden && kept == null) {
                kept = new ArrayList<>(Arrays.asList(references).subList(0, i));
            } else if (!hidden && kept != null) {
                kept.add(reference);
            }
        }
        return kept == null ? references : kept.toArray(UaReference[]::new);
    }

    private static DataValue status(int code) {
        return DataValue.ofStatus(StatusCode.of(code));
    }
}
