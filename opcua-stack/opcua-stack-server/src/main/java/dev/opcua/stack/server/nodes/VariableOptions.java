package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.nodes.InMemoryNodeManager.WriteHandler;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.WellKnownRole;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Options of a variable declared with an {@link InMemoryNodeManagerBuilder} (Part 3, 5.6.2): value
 * rank, dimensions, access, history, and where its value comes from.
 */
public final class VariableOptions extends NodeOptions<VariableOptions> {

    private final NodeDeclaration.Variable variable;

    VariableOptions(NodeDeclaration declaration, NodeDeclaration.Variable variable) {
        super(declaration);
        this.variable = variable;
    }

    /** ValueRank (Part 3, 5.6.2): -1 scalar (the default), 1 one dimension, ... */
    public VariableOptions valueRank(int rank) {
        if (rank < -3) {
            throw new IllegalArgumentException("valueRank must be >= -3, was " + rank);
        }
        variable.valueRank = rank;
        return this;
    }

    /** ArrayDimensions, UInt32 lengths (0 = any). */
    public VariableOptions arrayDimensions(long... dimensions) {
        variable.arrayDimensions = dimensions.clone();
        return this;
    }

    /** Read and write access (readable and not writable by default; a write handler makes it writable). */
    public VariableOptions access(boolean read, boolean write) {
        variable.readable = read;
        variable.writable = write;
        return this;
    }

    /** Only these roles may write the value (Write permission); the other permissions as the namespace's. */
    public VariableOptions writeRoles(WellKnownRole... roles) {
        return roles(Permission.WRITE, roles);
    }

    /** Only these roles may read the value (Read permission); the other permissions as the namespace's. */
    public VariableOptions readRoles(WellKnownRole... roles) {
        return roles(Permission.READ, roles);
    }

    /** Allows writing the value. */
    public VariableOptions writable() {
        variable.writable = true;
        return this;
    }

    public VariableOptions minimumSamplingInterval(double ms) {
        variable.minimumSamplingInterval = ms;
        return this;
    }

    /** The stored initial value. */
    public VariableOptions value(Variant initial) {
        variable.value = Objects.requireNonNull(initial, "initial");
        return this;
    }

    /** Asks {@code source} on every read; a UaException it throws becomes the read's status. */
    public VariableOptions valueSupplier(Supplier<Variant> source) {
        variable.supplier = Objects.requireNonNull(source, "source");
        return this;
    }

    /**
     * Records the variable's values in the server's history store (Part 11): Historizing true and the
     * AccessLevel HistoryRead bit, so that clients read its history with HistoryRead.
     */
    public VariableOptions historizing() {
        variable.historizing = true;
        return this;
    }

    /**
     * Records the variable (see {@link #historizing()}) and lets clients change its history with
     * HistoryUpdate (AccessLevel HistoryWrite bit).
     */
    public VariableOptions historyWritable() {
        variable.historizing = true;
        variable.historyWritable = true;
        return this;
    }

    /**
     * Records the variable (see {@link #historizing()}) as stepped: its value holds until the next one
     * rather than changing along a line between them, as for a state or a setpoint (the Stepped property
     * of its HistoricalDataConfiguration, Part 11, 5.2.2). At-time and processed history reads hold the
     * previous value instead of interpolating. Default: sloped.
     */
    public VariableOptions stepped() {
        variable.historizing = true;
        variable.stepped = true;
        return this;
    }

    /** Sees each written value before it is stored and may veto it; makes the variable writable. */
    public VariableOptions onWrite(WriteHandler handler) {
        variable.writeHandler = Objects.requireNonNull(handler, "handler");
        return this;
    }
}
