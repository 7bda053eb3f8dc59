package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.structured.AttributeOperand;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.ContentFilterElementResult;
import dev.opcua.stack.core.types.structured.ContentFilterResult;
import dev.opcua.stack.core.types.structured.ElementOperand;
import dev.opcua.stack.core.types.structured.LiteralOperand;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import java.util.Arrays;
import java.util.List;

/**
 * A compiled where clause: a ContentFilter (Part 4, 7.7) validated once per monitored item and then
 * evaluated against each event.
 *
 * <p>Supported operators (Part 4, 7.7.3): Equals, IsNull, GreaterThan, LessThan, GreaterThanOrEqual,
 * LessThanOrEqual, Like, Not, Between, InList, And, Or and OfType; Cast, InView, RelatedTo,
 * BitwiseAnd and BitwiseOr answer BadFilterOperatorUnsupported. Operands are ElementOperands,
 * LiteralOperands and SimpleAttributeOperands; AttributeOperands are refused.
 *
 * <p>Logic is three-valued: an operand that is null, or a field the event lacks, makes a comparison
 * NULL; And and Or follow the truth tables of 7.7.3 (FALSE and X is FALSE, TRUE or X is TRUE, otherwise
 * NULL wins over the other value); Not NULL is NULL; an operand of And, Or or Not that is not a Boolean
 * counts as NULL. A comparison whose operands have no implicit conversion to a common type is FALSE
 * (see {@link FilterValues}). An event passes only when element 0 is TRUE. Elements no path from
 * element 0 reaches are validated but not evaluated.
 *
 * <p>Evaluation allocates nothing, except a small memo array when elements are shared by several
 * others (so that a shared sub-expression is computed once rather than once per path, which could be
 * exponential), a pattern compiled per event when a Like pattern comes from a field rather than a
 * literal, and a String or UUID made for a mixed-type comparison that needs one.
 */
final class WhereClause {

    static final int FALSE = 0;
    static final int TRUE = 1;
    static final int NULL = 2;

    /** Longest chain of ElementOperands accepted: bounds the recursion of an evaluation. */
    static final int MAX_NESTING = 64;

    private static final Variant BOOLEAN_TRUE = Variant.ofBoolean(true);
    private static final Variant BOOLEAN_FALSE = Variant.ofBoolean(false);
    private static final StatusCode GOOD = StatusCode.GOOD;
    private static final StatusCode[] NO_STATUS = {};
    private static final DiagnosticInfo[] NO_DIAGNOSTICS = {};

    private static final int LITERAL = 0;
    private static final int FIELD = 1;
    private static final int ELEMENT = 2;

    /** One compiled operand. */
    private static final class Operand {
        final int kind;
        final Variant literal;
        final FieldSelector field;
        final int element;

        Operand(int kind, Variant literal, FieldSelector field, int element) {
            this.kind = kind;
            this.literal = literal;
            this.field = field;
            this.element = element;
        }
    }

    /**
     * One compiled element: its operator, operands and what could be prepared from literals. The
     * prepared fields are set during compilation, before the clause is published through final fields.
     */
    private static final class Element {
        final FilterOperator operator;
        final Operand[] operands;
        /** Like with a literal pattern: compiled once. */
        LikePattern pattern;
        /** OfType: the type to test. */
        NodeId ofType;

        Element(FilterOperator operator, Operand[] operands) {
            this.operator = operator;
            this.operands = operands;
        }
    }

    /** The outcome of compiling a where clause: the clause (null when empty or invalid) and its result. */
    record Compilation(WhereClause clause, ContentFilterResult result, boolean valid) {
    }

    private final Element[] elements;
    private final boolean memoize;
    private final EventTypeTree types;

    private WhereClause(Element[] elements, boolean memoize, EventTypeTree types) {
        this.elements = elements;
        this.memoize = memoize;
        this.types = types;
    }

    /**
     * Validates a where clause. Problems found are added to {@code problems} as sentences naming the
     * element and operand. An empty or absent where clause is valid and has no clause: every event
     * passes.
     */
    static Compilation compile(ContentFilter filter, EventTypeTree types, List<String> problems) {
        ContentFilterElement[] in = filter == null ? null : filter.elements();
        if (in == null || in.length == 0) {
            return new Compilation(null, new ContentFilterResult(new ContentFilterElementResult[0], NO_DIAGNOSTICS),
                    true);
        }
        int n = in.length;
        Element[] out = new Element[n];
        StatusCode[] elementStatus = new StatusCode[n];
        StatusCode[][] operandStatus = new StatusCode[n][];
        for (int i = 0; i < n; i++) {
            elementStatus[i] = GOOD;
            compileElement(in, i, types, out, elementStatus, operandStatus, problems);
        }
        checkGraph(out, elementStatus, operandStatus, problems);
        boolean valid = true;
        ContentFilterElementResult[] results = new ContentFilterElementResult[n];
        for (int i = 0; i < n; i++) {
            valid &= elementStatus[i].isGood();
            results[i] = new ContentFilterElementResult(elementStatus[i],
                    operandStatus[i] == null ? NO_STATUS : operandStatus[i], NO_DIAGNOSTICS);
        }
        ContentFilterResult result = new ContentFilterResult(results, NO_DIAGNOSTICS);
        return new Compilation(valid ? new WhereClause(out, sharesElements(out), types) : null, result, valid);
    }

    private static void compileElement(ContentFilterElement[] in, int i, EventTypeTree types, Element[] out,
            StatusCode[] elementStatus, StatusCode[][] operandStatus, List<String> problems) {
        ContentFilterElement element = in[i];
        FilterOperator operator = element == null ? null : element.filterOperator();
        if (operator == null) {
            fail(elementStatus, i, StatusCodes.BadFilterOperatorInvalid, problems, "no operator");
            return;
        }
        int min = minOperands(operator);
        if (min < 0) {
            fail(elementStatus, i, StatusCodes.BadFilterOperatorUnsupported, problems,
                    "operator " + operator + " is not supported");
            return;
        }
        ExtensionObject[] raw = element.filterOperands() == null ? new ExtensionObject[0] : element.filterOperands();
        int max = operator == FilterOperator.InList ? Integer.MAX_VALUE : min;
        if (raw.length < min || raw.length > max) {
            fail(elementStatus, i, StatusCodes.BadFilterOperandCountMismatch, problems, operator + " takes "
                    + (max == min ? "" : "at least ") + min + " operand" + (min == 1 ? "" : "s") + ", got "
                    + raw.length);
            return;
        }
        Operand[] operands = new Operand[raw.length];
        StatusCode[] statuses = null;
        for (int k = 0; k < raw.length; k++) {
            try {
                operands[k] = compileOperand(raw[k], i, in.length, types);
            } catch (UaException e) {
                statuses = operandFailed(statuses, raw.length, k, e.statusCode());
                problems.add("where clause element " + i + " operand " + k + ": " + e.getMessage());
            }
        }
        Element compiled = new Element(operator, operands);
        if (statuses == null) {
            statuses = prepare(compiled, i, types, problems);
        }
        if (statuses != null) {
            operandStatus[i] = statuses;
            elementStatus[i] = StatusCode.of(StatusCodes.BadFilterOperandInvalid);
            return;
        }
        out[i] = compiled;
    }

    /**
     * Prepares what the literals of OfType and Like allow: the type to test, the compiled pattern.
     * Returns the operand statuses when an operand is unusable, else null.
     */
    private static StatusCode[] prepare(Element element, int i, EventTypeTree types, List<String> problems) {
        Operand[] operands = element.operands;
        if (element.operator == FilterOperator.OfType) {
            if (operands[0].kind != LITERAL) {
                return operandProblem(operands.length, 0, StatusCodes.BadFilterOperandInvalid, i, problems,
                        "OfType needs a LiteralOperand holding the NodeId of an ObjectType");
            }
            Variant v = operands[0].literal;
            NodeId type = null;
            if (!v.isArray() && v.value() instanceof NodeId id) {
                type = id;
            } else if (!v.isArray() && v.value() instanceof ExpandedNodeId x && x.isLocal()
                    && x.namespaceUri() == null) {
                type = x.nodeId();
            }
            if (type == null) {
                return operandProblem(operands.length, 0, StatusCodes.BadFilterLiteralInvalid, i, problems,
                        "OfType needs a NodeId literal, got " + v);
            }
            if (!types.isKnown(type)) {
                return operandProblem(operands.length, 0, StatusCodes.BadNodeIdUnknown, i, problems,
                        "OfType names " + type + ", which is not a known ObjectType");
            }
            element.ofType = type;
        } else if (element.operator == FilterOperator.Like && operands[1].kind == LITERAL) {
            String pattern = FilterValues.asString(operands[1].literal);
            if (pattern != null) {
                try {
                    element.pattern = LikePattern.compile(pattern);
                } catch (IllegalArgumentException e) {
                    return operandProblem(operands.length, 1, StatusCodes.BadFilterLiteralInvalid, i, problems,
                            e.getMessage());
                }
            }
        }
        return null;
    }

    private static StatusCode[] operandProblem(int count, int k, int status, int i, List<String> problems,
            String problem) {
        StatusCode code = StatusCode.of(status);
        problems.add("where clause element " + i + " operand " + k + ": " + code + ": " + problem);
        return operandFailed(null, count, k, code);
    }

    private static Operand compileOperand(ExtensionObject raw, int index, int count, EventTypeTree types) {
        if (raw == null || raw.isNull() || !raw.isDecoded()) {
            throw new UaException(StatusCodes.BadFilterOperandInvalid, "not a FilterOperand this server decodes");
        }
        UaStructure operand = raw.decoded();
        if (operand instanceof LiteralOperand literal) {
            return new Operand(LITERAL, literal.value() == null ? Variant.NULL : literal.value(), null, -1);
        }
        if (operand instanceof SimpleAttributeOperand attribute) {
            return new Operand(FIELD, null, FieldSelector.compile(attribute, types), -1);
        }
        if (operand instanceof ElementOperand element) {
            long target = element.index();
            if (target >= count) {
                throw new UaException(StatusCodes.BadFilterElementInvalid,
                        "ElementOperand refers to element " + target + " of a filter of " + count);
            }
            if (target == index) {
                throw new UaException(StatusCodes.BadFilterElementInvalid, "ElementOperand refers to its own element");
            }
            return new Operand(ELEMENT, null, null, (int) target);
        }
        if (operand instanceof AttributeOperand) {
            throw new UaException(StatusCodes.BadFilterOperandInvalid,
                    "AttributeOperand is not supported in an EventFilter, use a SimpleAttributeOperand");
        }
        throw new UaException(StatusCodes.BadFilterOperandInvalid,
                operand.getClass().getSimpleName() + " is not a FilterOperand");
    }

    /** Operand count of a supported operator (InList: the minimum), -1 when not supported. */
    private static int minOperands(FilterOperator operator) {
        return switch (operator) {
            case IsNull, Not, OfType -> 1;
            case Equals, GreaterThan, LessThan, GreaterThanOrEqual, LessThanOrEqual, Like, And, Or, InList -> 2;
            case Between -> 3;
            default -> -1;
        };
    }

    /**
     * Refuses loops of ElementOperands and chains deeper than {@link #MAX_NESTING}: an iterative
     * depth-first walk, so a hostile filter cannot overflow the stack here either.
     */
    private static void checkGraph(Element[] elements, StatusCode[] elementStatus, StatusCode[][] operandStatus,
            List<String> problems) {
        int n = elements.length;
        byte[] state = new byte[n]; // 0 unvisited, 1 on the walk's path, 2 done
        int[] depth = new int[n];
        int[] stack = new int[n];
        int[] next = new int[n];
        for (int root = 0; root < n; root++) {
            if (state[root] != 0 || elements[root] == null) {
                continue;
            }
            int sp = 0;
            stack[sp] = root;
            next[sp++] = 0;
            state[root] = 1;
            while (sp > 0) {
                int top = stack[sp - 1];
                Operand[] operands = elements[top].operands;
                int k = next[sp - 1]++;
                if (k < operands.length) {
                    Operand o = operands[k];
                    if (o == null || o.kind != ELEMENT || elements[o.element] == null) {
                        continue;
                    }
                    if (state[o.element] == 1) {
                        StatusCode code = StatusCode.of(StatusCodes.BadFilterElementInvalid);
                        operandStatus[top] = operandFailed(operandStatus[top], operands.length, k, code);
                        elementStatus[top] = StatusCode.of(StatusCodes.BadFilterOperandInvalid);
                        problems.add("where clause element " + top + " operand " + k + ": " + code
                                + ": ElementOperand " + o.element + " closes a loop");
                    } else if (state[o.element] == 0) {
                        state[o.element] = 1;
                        stack[sp] = o.element;
                        next[sp++] = 0;
                    }
                    continue;
                }
                int d = 1;
                for (Operand o : operands) {
                    if (o != null && o.kind == ELEMENT && state[o.element] == 2) {
                        d = Math.max(d, depth[o.element] + 1);
                    }
                }
                depth[top] = d;
                state[top] = 2;
                sp--;
                if (d == MAX_NESTING + 1) {
                    fail(elementStatus, top, StatusCodes.BadFilterElementInvalid, problems,
                            "nests more than " + MAX_NESTING + " elements");
                }
            }
        }
    }

    /** Whether some element is the operand of more than one other: then evaluation memoizes. */
    private static boolean sharesElements(Element[] elements) {
        byte[] references = new byte[elements.length];
        for (Element e : elements) {
            for (Operand o : e.operands) {
                if (o.kind == ELEMENT && ++references[o.element] > 1) {
                    return true;
                }
            }
        }
        return false;
    }

    private static StatusCode[] operandFailed(StatusCode[] statuses, int count, int index, StatusCode status) {
        StatusCode[] s = statuses;
        if (s == null) {
            s = new StatusCode[count];
            Arrays.fill(s, GOOD);
        }
        s[index] = status;
        return s;
    }

    private static void fail(StatusCode[] elementStatus, int i, int status, List<String> problems, String problem) {
        elementStatus[i] = StatusCode.of(status);
        problems.add("where clause element " + i + ": " + elementStatus[i] + ": " + problem);
    }

    /** Whether the event passes: element 0 evaluates to TRUE. */
    boolean matches(UaEvent event) {
        return evaluate(event) == TRUE;
    }

    /** TRUE, FALSE or NULL for the event. */
    int evaluate(UaEvent event) {
        return element(0, event, memoize ? new byte[elements.length] : null);
    }

    private int element(int index, UaEvent event, byte[] memo) {
        if (memo != null && memo[index] != 0) {
            return memo[index] - 1;
        }
        int result = compute(elements[index], event, memo);
        if (memo != null) {
            memo[index] = (byte) (result + 1);
        }
        return result;
    }

    private int compute(Element e, UaEvent event, byte[] memo) {
        Operand[] ops = e.operands;
        switch (e.operator) {
            case Equals:
            case GreaterThan:
            case LessThan:
            case GreaterThanOrEqual:
            case LessThanOrEqual:
                return comparison(e.operator, value(ops[0], event, memo), value(ops[1], event, memo));
            case IsNull:
                return FilterValues.isNull(value(ops[0], event, memo)) ? TRUE : FALSE;
            case Not: {
                int b = bool(ops[0], event, memo);
                return b == NULL ? NULL : b == TRUE ? FALSE : TRUE;
            }
            case And: {
                int a = bool(ops[0], event, memo);
                if (a == FALSE) {
                    return FALSE;
                }
                int b = bool(ops[1], event, memo);
                return b == FALSE ? FALSE : a == TRUE && b == TRUE ? TRUE : NULL;
            }
            case Or: {
                int a = bool(ops[0], event, memo);
                if (a == TRUE) {
                    return TRUE;
                }
                int b = bool(ops[1], event, memo);
                return b == TRUE ? TRUE : a == FALSE && b == FALSE ? FALSE : NULL;
            }
            case InList: {
                Variant v = value(ops[0], event, memo);
                if (FilterValues.isNull(v)) {
                    return NULL;
                }
                for (int k = 1; k < ops.length; k++) {
                    Variant candidate = value(ops[k], event, memo);
                    if (!FilterValues.isNull(candidate) && FilterValues.compare(v, candidate, false) == 0) {
                        return TRUE;
                    }
                }
                return FALSE;
            }
            case Between: {
                Variant v = value(ops[0], event, memo);
                Variant low = value(ops[1], event, memo);
                Variant high = value(ops[2], event, memo);
                if (FilterValues.isNull(v) || FilterValues.isNull(low) || FilterValues.isNull(high)) {
                    return NULL;
                }
                int c1 = FilterValues.compare(v, low, true);
                int c2 = FilterValues.compare(v, high, true);
                if (c1 == FilterValues.INCOMPARABLE || c2 == FilterValues.INCOMPARABLE) {
                    return FALSE;
                }
                return c1 >= 0 && c2 <= 0 ? TRUE : FALSE;
            }
            case Like:
                return like(e, value(ops[0], event, memo), value(ops[1], event, memo));
            case OfType:
                return types.isEventOfType(event.eventType(), e.ofType) ? TRUE : FALSE;
            default:
                return NULL; // not reached: compile refuses other operators
        }
    }

    private static int comparison(FilterOperator operator, Variant a, Variant b) {
        if (FilterValues.isNull(a) || FilterValues.isNull(b)) {
            return NULL;
        }
        int c = FilterValues.compare(a, b, operator != FilterOperator.Equals);
        if (c == FilterValues.INCOMPARABLE) {
            return FALSE;
        }
        boolean result = switch (operator) {
            case Equals -> c == 0;
            case GreaterThan -> c > 0;
            case LessThan -> c < 0;
            case GreaterThanOrEqual -> c >= 0;
            default -> c <= 0;
        };
        return result ? TRUE : FALSE;
    }

    private static int like(Element e, Variant value, Variant patternValue) {
        if (FilterValues.isNull(value) || FilterValues.isNull(patternValue)) {
            return NULL;
        }
        String text = FilterValues.asString(value);
        if (text == null) {
            return FALSE;
        }
        LikePattern pattern = e.pattern;
        if (pattern == null) {
            String source = FilterValues.asString(patternValue);
            if (source == null) {
                return FALSE;
            }
            try {
                pattern = LikePattern.compile(source);
            } catch (IllegalArgumentException invalid) {
                return FALSE;
            }
        }
        return pattern.matches(text) ? TRUE : FALSE;
    }

    private Variant value(Operand o, UaEvent event, byte[] memo) {
        switch (o.kind) {
            case LITERAL:
                return o.literal;
            case FIELD:
                return o.field.operand(event, types);
            default: {
                int r = element(o.element, event, memo);
                return r == TRUE ? BOOLEAN_TRUE : r == FALSE ? BOOLEAN_FALSE : Variant.NULL;
            }
        }
    }

    /** An operand as TRUE, FALSE or NULL: anything but a Boolean is NULL. */
    private int bool(Operand o, UaEvent event, byte[] memo) {
        if (o.kind == ELEMENT) {
            return element(o.element, event, memo);
        }
        Variant v = value(o, event, memo);
        if (v.type() != BuiltinType.Boolean || v.isArray()) {
            return NULL;
        }
        return (Boolean) v.value() ? TRUE : FALSE;
    }
}
