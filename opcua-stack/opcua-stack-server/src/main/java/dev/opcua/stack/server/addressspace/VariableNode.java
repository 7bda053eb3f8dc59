package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import java.util.Objects;

/**
 * A Variable node (Part 3, 5.6.2). Its value is held here and may change at any time (a volatile
 * reference to an immutable DataValue); node managers that get values from elsewhere answer reads
 * themselves.
 */
public class VariableNode extends UaNode {

    private final ValueAttributes valueAttributes;
    private final short accessLevel;
    private final short userAccessLevel;
    private final double minimumSamplingInterval;
    private final boolean historizing;
    private final long accessLevelEx;
    private volatile DataValue value;

    /**
     * @param accessLevel AccessLevel bits (Byte, Part 3, 8.57)
     * @param userAccessLevel UserAccessLevel bits
     * @param minimumSamplingInterval ms, -1 indeterminate, 0 continuous
     * @param accessLevelEx AccessLevelEx bits (UInt32, Part 3, 8.58)
     */
    public VariableNode(NodeId nodeId, QualifiedName browseName, LocalizedText displayName, LocalizedText description,
            long writeMask, long userWriteMask, DataValue value, ValueAttributes valueAttributes, short accessLevel,
            short userAccessLevel, double minimumSamplingInterval, boolean historizing, long accessLevelEx) {
        super(nodeId, browseName, displayName, description, writeMask, userWriteMask);
        this.value = value == null ? DataValue.NULL : value;
        this.valueAttributes = Objects.requireNonNull(valueAttributes, "valueAttributes");
        this.accessLevel = accessLevel;
        this.userAccessLevel = userAccessLevel;
        this.minimumSamplingInterval = minimumSamplingInterval;
        this.historizing = historizing;
        this.accessLevelEx = accessLevelEx;
    }

    @Override
    public NodeClass nodeClass() {
        return NodeClass.Variable;
    }

    /** The current value with its status and timestamps. */
    public DataValue value() {
        return value;
    }

    public void setValue(DataValue value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    public ValueAttributes valueAttributes() {
        return valueAttributes;
    }

    public short accessLevel() {
        return accessLevel;
    }

    public short userAccessLevel() {
        return userAccessLevel;
    }

    public double minimumSamplingInterval() {
        return minimumSamplingInterval;
    }

    public boolean historizing() {
        return historizing;
    }

    public long accessLevelEx() {
        return accessLevelEx;
    }

    @Override
    public Variant attribute(int attributeId) {
        switch (attributeId) {
            case AttributeIds.Value:
                return value.value();
            case AttributeIds.AccessLevel:
                return Variant.ofByte(accessLevel);
            case AttributeIds.UserAccessLevel:
                return Variant.ofByte(userAccessLevel);
            case AttributeIds.MinimumSamplingInterval:
                return Variant.ofDouble(minimumSamplingInterval);
            case AttributeIds.Historizing:
                return Variant.ofBoolean(historizing);
            case AttributeIds.AccessLevelEx:
                return Variant.ofUInt32(accessLevelEx);
            default:
                Variant v = valueAttributes.read(attributeId);
                return v != null ? v : super.attribute(attributeId);
        }
    }
}
