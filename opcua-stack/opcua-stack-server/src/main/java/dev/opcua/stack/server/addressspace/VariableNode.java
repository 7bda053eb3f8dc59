package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A Variable node (Part 3, 5.6.2). Its value is either held here (a volatile reference to an
 * immutable DataValue, replaced on write) or produced on each read by a value source, for values
 * that live elsewhere such as the server's current time.
 */
public class VariableNode extends UaNode {

    private final ValueAttributes valueAttributes;
    /** AccessLevel bits HistoryRead and HistoryWrite (Part 3, 8.57). */
    private static final int HISTORY_READ = 0x04;
    private static final int HISTORY_WRITE = 0x08;

    private volatile short accessLevel;
    private volatile short userAccessLevel;
    private final double minimumSamplingInterval;
    private volatile boolean historizing;
    private volatile long accessLevelEx;
    private volatile DataValue value;
    private volatile Supplier<DataValue> valueSource;
    private volatile Consumer<DataValue> valueListener;

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

    /** The current value with its status and timestamps: the value source's when one is set. */
    public DataValue value() {
        Supplier<DataValue> source = valueSource;
        return source == null ? value : source.get();
    }

    /** Stores a value; a value source, when set, still answers reads. The value listener, if any, sees it. */
    public void setValue(DataValue value) {
        this.value = Objects.requireNonNull(value, "value");
        Consumer<DataValue> listener = valueListener;
        if (listener != null) {
            listener.accept(value);
        }
    }

    /**
     * Who sees every value stored with {@link #setValue}, on the storing thread, such as the history
     * recorder; null for none. Must not block.
     */
    public void setValueListener(Consumer<DataValue> listener) {
        this.valueListener = listener;
    }

    /**
     * Makes the variable's history readable and, when {@code writable}, updatable (Part 3, 5.6.2 Historizing,
     * 8.57 AccessLevel bits HistoryRead and HistoryWrite, in AccessLevel, UserAccessLevel and AccessLevelEx),
     * and says whether the server records it now (Historizing).
     */
    public void setHistoryAccess(boolean historizing, boolean writable) {
        int bits = HISTORY_READ | (writable ? HISTORY_WRITE : 0);
        int cleared = ~(HISTORY_READ | HISTORY_WRITE);
        this.accessLevel = (short) ((accessLevel & cleared) | bits);
        this.userAccessLevel = (short) ((userAccessLevel & cleared) | bits);
        this.accessLevelEx = (accessLevelEx & cleared) | bits;
        this.historizing = historizing;
    }

    /** Makes every read ask {@code source} for the value; null returns to the stored value. */
    public void setValueSource(Supplier<DataValue> source) {
        this.valueSource = source;
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
                return value().value();
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
