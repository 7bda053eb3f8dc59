package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.EventFilterResult;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The EventFilter of one event monitored item (Part 4, 7.22.3), compiled once when the item is
 * created or modified and then applied to every event its notifier reports.
 *
 * <p>{@link #compile} validates the filter and never throws for a client's mistakes: the outcome is
 * {@link #status()} and an {@link #result() EventFilterResult} with a status per select clause and per
 * where-clause element (Part 4, 7.7.2 and 7.22.3):
 * <ul>
 * <li>no select clause: BadEventFilterInvalid, the item is refused;</li>
 * <li>an invalid where clause (any element not Good): BadEventFilterInvalid, the item is refused, the
 * element results say why (BadFilterOperatorInvalid, BadFilterOperatorUnsupported,
 * BadFilterOperandCountMismatch, BadFilterOperandInvalid with the operand's own status:
 * BadFilterElementInvalid, BadFilterLiteralInvalid, BadNodeIdUnknown, BadTypeDefinitionInvalid,
 * BadBrowseNameInvalid, BadAttributeIdInvalid, BadIndexRangeInvalid);</li>
 * <li>an invalid select clause (the same operand statuses): the item is accepted and that field is
 * always null, as 7.22.3 prescribes for rejected fields.</li>
 * </ul>
 * {@link #problems()} holds one sentence per problem, for logs and DiagnosticInfos.
 *
 * <p>Per event, {@link #evaluate} runs the where clause and builds the field values; it allocates the
 * result array and, in the cases {@link WhereClause} names, little else. Immutable and thread-safe:
 * events may be reported from several threads at once.
 */
public final class EventFilterEvaluator {

    private static final DiagnosticInfo[] NO_DIAGNOSTICS = {};

    private final EventTypeTree types;
    /** One per select clause; null for a rejected clause, whose field is always null. */
    private final FieldSelector[] selects;
    /** Null when every event passes. */
    private final WhereClause where;
    private final StatusCode status;
    private final EventFilterResult result;
    private final boolean hasErrors;
    private final List<String> problems;

    private EventFilterEvaluator(EventTypeTree types, FieldSelector[] selects, WhereClause where, StatusCode status,
            EventFilterResult result, boolean hasErrors, List<String> problems) {
        this.types = types;
        this.selects = selects;
        this.where = where;
        this.status = status;
        this.result = result;
        this.hasErrors = hasErrors;
        this.problems = List.copyOf(problems);
    }

    /**
     * Validates and compiles a filter against the known event types.
     *
     * @param filter the item's EventFilter; null is refused with BadEventFilterInvalid
     */
    public static EventFilterEvaluator compile(EventFilter filter, EventTypeTree types) {
        Objects.requireNonNull(types, "types");
        List<String> problems = new ArrayList<>(0);
        SimpleAttributeOperand[] clauses = filter == null || filter.selectClauses() == null
                ? new SimpleAttributeOperand[0] : filter.selectClauses();
        FieldSelector[] selects = new FieldSelector[clauses.length];
        StatusCode[] selectResults = new StatusCode[clauses.length];
        boolean hasErrors = false;
        for (int i = 0; i < clauses.length; i++) {
            try {
                selects[i] = FieldSelector.compile(clauses[i], types);
                selectResults[i] = StatusCode.GOOD;
            } catch (UaException e) {
                selectResults[i] = e.statusCode();
                problems.add("select clause " + i + ": " + e.getMessage());
                hasErrors = true;
            }
        }
        WhereClause.Compilation where = WhereClause.compile(filter == null ? null : filter.whereClause(), types,
                problems);
        hasErrors |= !where.valid();
        StatusCode status = StatusCode.GOOD;
        if (filter == null || clauses.length == 0) {
            status = StatusCode.of(StatusCodes.BadEventFilterInvalid);
            problems.add(0, status + ": " + (filter == null ? "no EventFilter: an event monitored item needs one"
                    : "the EventFilter has no select clause"));
            hasErrors = true;
        } else if (!where.valid()) {
            status = StatusCode.of(StatusCodes.BadEventFilterInvalid);
        }
        EventFilterResult result = new EventFilterResult(selectResults, NO_DIAGNOSTICS, where.result());
        return new EventFilterEvaluator(types, selects, where.clause(), status, result, hasErrors, problems);
    }

    /** Good when the item may be created with this filter, else BadEventFilterInvalid. */
    public StatusCode status() {
        return status;
    }

    public boolean isValid() {
        return status.isGood();
    }

    /** The filter result for the MonitoredItemCreateResult/ModifyResult: a status per clause. */
    public EventFilterResult result() {
        return result;
    }

    /**
     * Whether any clause was rejected. When false the server may omit the filterResult (Part 4,
     * 5.12.2.2).
     */
    public boolean hasErrors() {
        return hasErrors;
    }

    /** One sentence per problem found, naming the clause, element and operand. */
    public List<String> problems() {
        return problems;
    }

    /** Number of fields each notification carries: one per select clause. */
    public int fieldCount() {
        return selects.length;
    }

    /** Whether the filter has a where clause, which some events may fail (a history read scans ahead then). */
    public boolean hasWhereClause() {
        return where != null;
    }

    /** Whether the event passes the where clause (TRUE; NULL and FALSE do not pass). */
    public boolean matches(UaEvent event) {
        checkValid();
        return where == null || where.matches(event);
    }

    /**
     * The selected fields, one per select clause in order: null Variants for fields the event lacks,
     * for events not of a clause's type, and for rejected clauses.
     */
    public Variant[] select(UaEvent event) {
        checkValid();
        Variant[] fields = new Variant[selects.length];
        for (int i = 0; i < fields.length; i++) {
            FieldSelector s = selects[i];
            fields[i] = s == null ? Variant.NULL : s.select(event, types);
        }
        return fields;
    }

    /** The fields of the event when it passes the where clause, else null. */
    public Variant[] evaluate(UaEvent event) {
        return matches(event) ? select(event) : null;
    }

    /** The notification for the event when it passes the where clause, else null. */
    public EventFieldList toFieldList(long clientHandle, UaEvent event) {
        Variant[] fields = evaluate(event);
        return fields == null ? null : new EventFieldList(clientHandle, fields);
    }

    private void checkValid() {
        if (!status.isGood()) {
            throw new IllegalStateException("the EventFilter was refused with " + status + ": " + problems);
        }
    }
}
