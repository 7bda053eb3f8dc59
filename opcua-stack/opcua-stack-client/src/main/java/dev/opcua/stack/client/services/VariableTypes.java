package dev.opcua.stack.client.services;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StandardDataTypes;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a variable holds, for converting Java values before a Write: the built-in type its DataType
 * is encoded as (Part 3, 5.8.2; Part 6, 5.1.2) and its ValueRank. Read once per variable (DataType
 * and ValueRank in one Read) and kept until {@link #clear()} (called when the client gets a new
 * session, since a restarted server may have changed its model). DataTypes that are not built-in
 * resolve through {@link StandardDataTypes} (Duration is a Double, UtcTime a DateTime ...) or else by
 * following HasSubtype upwards with Browse (at most {@value #MAX_DEPTH} levels) to one it knows.
 */
public final class VariableTypes {

    /** A variable's encoded type and ValueRank. */
    public record VariableType(BuiltinType type, int valueRank) {
    }

    static final int MAX_DEPTH = 16;
    private static final int HAS_SUBTYPE = NodeIds.HasSubtype;
    private final AttributeServices attributes;
    private final ViewServices views;
    private final Map<NodeId, VariableType> variables = new ConcurrentHashMap<>();
    private final Map<NodeId, BuiltinType> dataTypes = new ConcurrentHashMap<>();

    public VariableTypes(AttributeServices attributes, ViewServices views) {
        this.attributes = attributes;
        this.views = views;
    }

    /** The variable's type, read on first use. */
    public CompletableFuture<VariableType> of(NodeId variable) {
        VariableType known = variables.get(variable);
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        ReadValueId[] ids = {new ReadValueId(variable, AttributeIds.DataType, null, QualifiedName.NULL),
            new ReadValueId(variable, AttributeIds.ValueRank, null, QualifiedName.NULL)};
        return attributes.read(0, TimestampsToReturn.Neither, ids).thenCompose(values -> {
            DataValue dataType = values.get(0);
            DataValue valueRank = values.get(1);
            if (dataType.statusCode().isBad()) {
                throw new UaException(dataType.statusCode(), "cannot read the DataType of " + variable);
            }
            if (!(dataType.value().value() instanceof NodeId typeId)) {
                throw new UaException(StatusCodes.BadTypeMismatch, variable + " has no NodeId DataType: " + dataType);
            }
            int rank = valueRank.statusCode().isGood() && valueRank.value().value() instanceof Integer r ? r
                    : VariantConversion.ANY;
            return builtinOf(typeId, 0).thenApply(type -> {
                VariableType vt = new VariableType(type, rank);
                variables.put(variable, vt);
                return vt;
            });
        });
    }

    /**
     * The built-in type a DataType is encoded as (Part 3, 5.8.2): itself for a built-in one, else its nearest
     * built-in supertype, found as {@link #of} finds a variable's.
     */
    public CompletableFuture<BuiltinType> builtinTypeOf(NodeId dataType) {
        return builtinOf(dataType, 0);
    }

    /** Forgets what was read: the next {@link #of} reads again. */
    public void clear() {
        variables.clear();
        dataTypes.clear();
    }

    private CompletableFuture<BuiltinType> builtinOf(NodeId dataType, int depth) {
        BuiltinType known = knownBuiltin(dataType);
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        if (depth >= MAX_DEPTH) {
            return CompletableFuture.failedFuture(new UaException(StatusCodes.BadTypeMismatch, "DataType " + dataType
                    + " has no built-in supertype within " + MAX_DEPTH + " levels of HasSubtype"));
        }
        BrowseDescription up = new BrowseDescription(dataType, BrowseDirection.Inverse, NodeId.ns0(HAS_SUBTYPE), false,
                0, 0x3F);
        return views.browse(new BrowseDescription[] {up}, 0).thenCompose(results -> {
            BrowseResult r = results[0];
            ReferenceDescription[] refs = r.references();
            if (r.statusCode().isBad() || refs == null || refs.length == 0) {
                throw new UaException(StatusCodes.BadTypeMismatch, "DataType " + dataType + " has no supertype ("
                        + r.statusCode() + ")");
            }
            NodeId parent = refs[0].nodeId().nodeId(); // a local node: the server's namespace indices
            return builtinOf(parent, depth + 1).thenApply(type -> {
                dataTypes.put(dataType, type);
                return type;
            });
        });
    }

    private BuiltinType knownBuiltin(NodeId dataType) {
        BuiltinType standard = StandardDataTypes.encodingOf(dataType);
        return standard != null ? standard : dataTypes.get(dataType);
    }
}
