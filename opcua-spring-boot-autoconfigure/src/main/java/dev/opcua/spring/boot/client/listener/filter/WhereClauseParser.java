package dev.opcua.spring.boot.client.listener.filter;

import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.ElementOperand;
import dev.opcua.stack.core.types.structured.LiteralOperand;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns the where clause of an event listener into a ContentFilter (Part 4, 7.7): a small, real
 * grammar of comparisons of event fields with literals, combined with {@code and}, {@code or},
 * {@code not} and parentheses.
 *
 * <pre>
 * clause     = or
 * or         = and { "or" and }
 * and        = unary { "and" unary }
 * unary      = "not" unary | "(" or ")" | comparison
 * comparison = field op literal
 * field      = name { "/" name }              a BaseEventType field by browse name (Part 5, 6.4.2),
 *                                             or a path to a field of a subtype: EnabledState/Id
 * op         = "=" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;="
 * literal    = number | "'" text "'" | true | false      ('' inside a text is one quote)
 * </pre>
 *
 * Keywords are case-insensitive; {@code and} binds tighter than {@code or}. The ContentFilter's
 * first element is the root (7.7.1); And, Or and Not refer to their operands with ElementOperands
 * (7.7.4.2), comparisons hold a SimpleAttributeOperand of the field ({@link EventFields#operand})
 * and a LiteralOperand (7.7.4.3). The operators are those of Table 119 (7.7.3): {@code =} Equals,
 * {@code <} LessThan, {@code <=} LessThanOrEqual, {@code >} GreaterThan, {@code >=}
 * GreaterThanOrEqual; FilterOperator has no NotEquals, so {@code a != b} is Not(Equals(a, b)).
 * Integers are Int32 literals (Int64 beyond its range), numbers with a fraction or exponent are
 * Double: the server converts them to the field's type by the implicit conversion rules of 7.7.3
 * (Severity, a UInt16, compares with an Int32 literal). Thread-safe: each call parses on its own.
 */
public final class WhereClauseParser {

    private WhereClauseParser() {
    }

    /**
     * @param text the where clause; blank for none
     * @return the filter, with no elements for a blank clause (every event)
     * @throws WhereClauseSyntaxException naming the position and what was expected there
     */
    public static ContentFilter parse(String text) {
        if (text == null || text.isBlank()) {
            return new ContentFilter(new ContentFilterElement[0]);
        }
        Node root = new Parser(text).parseClause();
        List<ContentFilterElement> elements = new ArrayList<>();
        emit(root, elements);
        return new ContentFilter(elements.toArray(ContentFilterElement[]::new));
    }

    // ---- syntax tree -------------------------------------------------------------------------------

    private sealed interface Node permits Logical, Negation, Comparison {
    }

    private record Logical(FilterOperator operator, Node left, Node right) implements Node {
    }

    private record Negation(Node operand) implements Node {
    }

    private record Comparison(String field, FilterOperator operator, boolean negated, Variant literal)
            implements Node {
    }

    /** Adds the node's element, then its operands' elements: the root is element 0 (Part 4, 7.7.1). */
    private static int emit(Node node, List<ContentFilterElement> elements) {
        int index = elements.size();
        elements.add(null); // reserved; operands come after their element
        ContentFilterElement element;
        if (node instanceof Logical logical) {
            int left = emit(logical.left(), elements);
            int right = emit(logical.right(), elements);
            element = new ContentFilterElement(logical.operator(), new ExtensionObject[] {
                    ExtensionObject.of(new ElementOperand(left)), ExtensionObject.of(new ElementOperand(right))});
        } else if (node instanceof Negation negation) {
            int operand = emit(negation.operand(), elements);
            element = new ContentFilterElement(FilterOperator.Not,
                    new ExtensionObject[] {ExtensionObject.of(new ElementOperand(operand))});
        } else {
            Comparison c = (Comparison) node;
            ContentFilterElement comparison = new ContentFilterElement(c.operator(), new ExtensionObject[] {
                    ExtensionObject.of(EventFields.operand(c.field())),
                    ExtensionObject.of(new LiteralOperand(c.literal()))});
            if (c.negated()) {
                elements.add(comparison);
                element = new ContentFilterElement(FilterOperator.Not,
                        new ExtensionObject[] {ExtensionObject.of(new ElementOperand(index + 1))});
            } else {
                element = comparison;
            }
        }
        elements.set(index, element);
        return index;
    }

    // ---- recursive descent ------------------------------------------------------------------------

    private static final class Parser {

        private final String text;
        private int pos;

        Parser(String text) {
            this.text = text;
        }

        Node parseClause() {
            Node node = parseOr();
            skipSpace();
            if (pos < text.length()) {
                throw error(text.charAt(pos) == ')' ? "unbalanced ')'" : "expected 'and', 'or' or the end of the "
                        + "clause, found " + describeHere());
            }
            return node;
        }

        private Node parseOr() {
            Node left = parseAnd();
            while (keyword("or")) {
                left = new Logical(FilterOperator.Or, left, parseAnd());
            }
            return left;
        }

        private Node parseAnd() {
            Node left = parseUnary();
            while (keyword("and")) {
                left = new Logical(FilterOperator.And, left, parseUnary());
            }
            return left;
        }

        private Node parseUnary() {
            skipSpace();
            if (keyword("not")) {
                return new Negation(parseUnary());
            }
            if (pos < text.length() && text.charAt(pos) == '(') {
                int open = pos++;
                Node inner = parseOr();
                skipSpace();
                if (pos >= text.length() || text.charAt(pos) != ')') {
                    throw error("expected ')' closing the '(' at position " + open + ", found " + describeHere());
                }
                pos++;
                return inner;
            }
            return parseComparison();
        }

        private Node parseComparison() {
            skipSpace();
            String field = parseField();
            skipSpace();
            int opStart = pos;
            String op = operator();
            if (op == null) {
                pos = opStart;
                throw error("expected a comparison operator (=, !=, <, <=, >, >=) after the field '" + field
                        + "', found " + describeHere());
            }
            skipSpace();
            Variant literal = parseLiteral();
            return switch (op) {
                case "=" -> new Comparison(field, FilterOperator.Equals, false, literal);
                case "!=" -> new Comparison(field, FilterOperator.Equals, true, literal);
                case "<" -> new Comparison(field, FilterOperator.LessThan, false, literal);
                case "<=" -> new Comparison(field, FilterOperator.LessThanOrEqual, false, literal);
                case ">" -> new Comparison(field, FilterOperator.GreaterThan, false, literal);
                default -> new Comparison(field, FilterOperator.GreaterThanOrEqual, false, literal);
            };
        }

        /** name { "/" name }, names of letters, digits and '_' starting with a letter or '_'. */
        private String parseField() {
            int start = pos;
            while (true) {
                if (pos >= text.length() || !isNameStart(text.charAt(pos))) {
                    throw error(pos == start ? "expected a field name (such as Severity), found " + describeHere()
                            : "expected a field name after '/', found " + describeHere());
                }
                while (pos < text.length() && isNamePart(text.charAt(pos))) {
                    pos++;
                }
                if (pos < text.length() && text.charAt(pos) == '/') {
                    pos++;
                    continue;
                }
                String field = text.substring(start, pos);
                String lower = field.toLowerCase(Locale.ROOT);
                if (lower.equals("and") || lower.equals("or") || lower.equals("not") || lower.equals("true")
                        || lower.equals("false")) {
                    pos = start;
                    throw error("expected a field name, found the keyword '" + field + "'");
                }
                return field;
            }
        }

        private String operator() {
            if (pos >= text.length()) {
                return null;
            }
            char c = text.charAt(pos);
            char next = pos + 1 < text.length() ? text.charAt(pos + 1) : 0;
            switch (c) {
                case '=':
                    pos += next == '=' ? 2 : 1; // "==" is forgiven
                    return "=";
                case '!':
                    if (next == '=') {
                        pos += 2;
                        return "!=";
                    }
                    return null;
                case '<':
                    if (next == '>') {
                        pos += 2;
                        return "!=";
                    }
                    pos += next == '=' ? 2 : 1;
                    return next == '=' ? "<=" : "<";
                case '>':
                    pos += next == '=' ? 2 : 1;
                    return next == '=' ? ">=" : ">";
                default:
                    return null;
            }
        }

        private Variant parseLiteral() {
            if (pos >= text.length()) {
                throw error("expected a literal (a number, 'text', true or false), found the end of the clause");
            }
            char c = text.charAt(pos);
            if (c == '\'') {
                return Variant.ofString(parseString());
            }
            if (c == '-' || c == '+' || c == '.' || Character.isDigit(c)) {
                return parseNumber();
            }
            if (isNameStart(c)) {
                int start = pos;
                while (pos < text.length() && isNamePart(text.charAt(pos))) {
                    pos++;
                }
                String word = text.substring(start, pos);
                if (word.equalsIgnoreCase("true") || word.equalsIgnoreCase("false")) {
                    return Variant.ofBoolean(Boolean.parseBoolean(word.toLowerCase(Locale.ROOT)));
                }
                pos = start;
                throw error("expected a literal (a number, 'text', true or false), found '" + word
                        + "' (texts are written in single quotes)");
            }
            throw error("expected a literal (a number, 'text', true or false), found " + describeHere());
        }

        private String parseString() {
            int open = pos++;
            StringBuilder value = new StringBuilder();
            while (pos < text.length()) {
                char c = text.charAt(pos++);
                if (c == '\'') {
                    if (pos < text.length() && text.charAt(pos) == '\'') {
                        value.append('\'');
                        pos++;
                        continue;
                    }
                    return value.toString();
                }
                value.append(c);
            }
            pos = open;
            throw error("the text opened by the quote here is not closed");
        }

        private Variant parseNumber() {
            int start = pos;
            if (text.charAt(pos) == '-' || text.charAt(pos) == '+') {
                pos++;
            }
            boolean fraction = false;
            while (pos < text.length()) {
                char c = text.charAt(pos);
                if (Character.isDigit(c)) {
                    pos++;
                } else if (c == '.' || c == 'e' || c == 'E') {
                    fraction = true;
                    pos++;
                    if ((c == 'e' || c == 'E') && pos < text.length()
                            && (text.charAt(pos) == '-' || text.charAt(pos) == '+')) {
                        pos++;
                    }
                } else {
                    break;
                }
            }
            if (pos < text.length() && isNamePart(text.charAt(pos))) {
                while (pos < text.length() && isNamePart(text.charAt(pos))) {
                    pos++;
                }
                String word = text.substring(start, pos);
                pos = start;
                throw error("'" + word + "' is not a number");
            }
            String number = text.substring(start, pos);
            try {
                if (fraction) {
                    return Variant.ofDouble(Double.parseDouble(number));
                }
                long value = Long.parseLong(number);
                return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? Variant.ofInt32((int) value)
                        : Variant.ofInt64(value);
            } catch (NumberFormatException e) {
                pos = start;
                throw error("'" + number + "' is not a number" + (fraction ? "" : " within the Int64 range"));
            }
        }

        /** Consumes a keyword that stands alone (not the start of a longer name). */
        private boolean keyword(String word) {
            skipSpace();
            int end = pos + word.length();
            if (end <= text.length() && text.regionMatches(true, pos, word, 0, word.length())
                    && (end == text.length() || !isNamePart(text.charAt(end)))) {
                pos = end;
                return true;
            }
            return false;
        }

        private void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private String describeHere() {
            if (pos >= text.length()) {
                return "the end of the clause";
            }
            int end = pos;
            while (end < text.length() && end - pos < 12 && !Character.isWhitespace(text.charAt(end))) {
                end++;
            }
            return "'" + text.substring(pos, Math.max(end, pos + 1)) + "'";
        }

        private WhereClauseSyntaxException error(String problem) {
            return new WhereClauseSyntaxException(text, pos, problem);
        }

        private static boolean isNameStart(char c) {
            return Character.isLetter(c) || c == '_';
        }

        private static boolean isNamePart(char c) {
            return Character.isLetterOrDigit(c) || c == '_';
        }
    }
}
