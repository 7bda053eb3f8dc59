package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import dev.opcua.stack.server.nodes.NumericRange;

/**
 * A validated SimpleAttributeOperand (Part 4, 7.7.4.5) of a select or where clause: which field of
 * which events it reads.
 *
 * <p>Supported: the Value attribute of a field (non-empty browse path) and the NodeId attribute of
 * the event's own node (empty browse path), as Part 4, 7.22.3 requires of every server. The
 * typeDefinitionId restricts the operand to events of that type or a subtype; for BaseEventType the
 * browse path applies to every event, for other types it must be one the type declares (itself or
 * through a supertype).
 */
final class FieldSelector {

    private static final Variant INDEX_RANGE_NO_DATA =
            Variant.ofScalar(BuiltinType.StatusCode, StatusCode.of(StatusCodes.BadIndexRangeNoData));

    /** Null when the operand applies to every event (typeDefinitionId BaseEventType). */
    private final NodeId typeRestriction;
    private final FieldPath path;
    private final NumericRange range;

    private FieldSelector(NodeId typeRestriction, FieldPath path, NumericRange range) {
        this.typeRestriction = typeRestriction;
        this.path = path;
        this.range = range;
    }

    /**
     * Validates an operand.
     *
     * @throws UaException with the status for the result (BadTypeDefinitionInvalid, BadNodeIdUnknown,
     *         BadBrowseNameInvalid, BadAttributeIdInvalid, BadIndexRangeInvalid) and a message naming
     *         the problem
     */
    static FieldSelector compile(SimpleAttributeOperand operand, EventTypeTree types) {
        if (operand == null) {
            throw new UaException(StatusCodes.BadFilterOperandInvalid, "the SimpleAttributeOperand is missing");
        }
        NodeId type = operand.typeDefinitionId();
        if (type == null || type.isNull()) {
            throw new UaException(StatusCodes.BadTypeDefinitionInvalid, "typeDefinitionId is null");
        }
        if (!types.isKnown(type)) {
            throw new UaException(StatusCodes.BadNodeIdUnknown,
                    "typeDefinitionId " + type + " is not a known ObjectType");
        }
        if (!types.isEventType(type)) {
            throw new UaException(StatusCodes.BadTypeDefinitionInvalid,
                    "typeDefinitionId " + type + " is not BaseEventType or one of its subtypes");
        }
        QualifiedName[] names = operand.browsePath() == null ? new QualifiedName[0] : operand.browsePath();
        for (int i = 0; i < names.length; i++) {
            if (names[i] == null || names[i].name() == null || names[i].name().isEmpty()) {
                throw new UaException(StatusCodes.BadBrowseNameInvalid,
                        "browsePath element " + i + " has no name: " + names[i]);
            }
        }
        FieldPath path = FieldPath.of(names);
        long attributeId = operand.attributeId();
        if (AttributeIds.name((int) Math.min(attributeId, Integer.MAX_VALUE)) == null) {
            throw new UaException(StatusCodes.BadAttributeIdInvalid,
                    "attributeId " + attributeId + " is not an attribute");
        }
        if (path.isEmpty() && attributeId != AttributeIds.NodeId) {
            throw new UaException(StatusCodes.BadAttributeIdInvalid, "the event node (empty browsePath) supports the "
                    + "NodeId attribute only, not " + AttributeIds.name((int) attributeId));
        }
        if (!path.isEmpty() && attributeId != AttributeIds.Value) {
            throw new UaException(StatusCodes.BadAttributeIdInvalid, "event field " + path
                    + " supports the Value attribute only, not " + AttributeIds.name((int) attributeId));
        }
        boolean anyEvent = type.equals(EventTypeTree.BASE_EVENT_TYPE);
        if (!anyEvent && !path.isEmpty() && !types.declares(type, path)) {
            throw new UaException(StatusCodes.BadNodeIdUnknown,
                    "event type " + type + " declares no field " + path);
        }
        NumericRange range = NumericRange.parse(operand.indexRange()); // throws BadIndexRangeInvalid
        return new FieldSelector(anyEvent ? null : type, path, range);
    }

    /**
     * The value for a select clause: the field, {@link Variant#NULL} when the event is not of the
     * operand's type or lacks the field, a BadIndexRangeNoData StatusCode when the index range selects
     * nothing.
     */
    Variant select(UaEvent event, EventTypeTree types) {
        Variant value = raw(event, types);
        if (range == null || value.isNull()) {
            return value;
        }
        try {
            return range.select(value);
        } catch (UaException e) {
            return INDEX_RANGE_NO_DATA;
        }
    }

    /** The value as a where-clause operand: as {@link #select}, but an index range without data is NULL. */
    Variant operand(UaEvent event, EventTypeTree types) {
        Variant value = select(event, types);
        return value == INDEX_RANGE_NO_DATA ? Variant.NULL : value;
    }

    private Variant raw(UaEvent event, EventTypeTree types) {
        if (typeRestriction != null && !types.isEventOfType(event.eventType(), typeRestriction)) {
            return Variant.NULL;
        }
        return path.isEmpty() ? event.nodeIdVariant() : event.field(path);
    }

    FieldPath path() {
        return path;
    }
}
