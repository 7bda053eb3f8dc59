package dev.opcua.sample.server.dashboards;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough of PromQL for the dashboard tests: the metric names an expression selects, and the
 * expression with Grafana's template variables replaced. Not a parser: it removes what cannot be a
 * metric name (strings, label matchers, ranges, grouping labels, numbers, durations) and keeps the
 * identifiers that are neither functions, aggregations nor keywords.
 */
public final class PromQl {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern OFFSET = Pattern.compile("\\boffset\\s+-?[0-9a-z]+|@\\s*[^\\s)]+");
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w:])(?:0x[0-9a-fA-F]+|\\d+\\.?\\d*(?:[eE][+-]?\\d+)?|\\.\\d+)");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)(?::\\w+)?}|\\[\\[(\\w+)]]|\\$(\\w+)");
    private static final Pattern LABEL_VALUES = Pattern.compile("^\\s*label_values\\((.*),\\s*(\\w+)\\s*\\)\\s*$");
    private static final Set<String> NOT_METRICS = Set.of(
            // aggregation operators: followed by "by (...)" rather than "("
            "sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk", "topk",
            "quantile", "limitk", "limit_ratio",
            // keywords and binary operators
            "by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "atan2",
            "offset", "start", "end", "inf", "nan", "Inf", "NaN");

    private PromQl() {
    }

    /** The metric names {@code expression} selects, in order of appearance. */
    public static Set<String> metricNames(String expression) {
        String rest = VARIABLE.matcher(expression).replaceAll("0");
        rest = STRING.matcher(rest).replaceAll("\"\"");
        rest = MATCHERS.matcher(rest).replaceAll(" ");
        rest = RANGE.matcher(rest).replaceAll(" ");
        rest = GROUPING.matcher(rest).replaceAll("$1 ");
        rest = OFFSET.matcher(rest).replaceAll(" ");
        rest = NUMBER.matcher(rest).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher identifier = IDENTIFIER.matcher(rest);
        while (identifier.find()) {
            String name = identifier.group();
            if (!NOT_METRICS.contains(name) && !calledAsFunction(rest, identifier.end())) {
                names.add(name);
            }
        }
        return names;
    }

    private static boolean calledAsFunction(String text, int after) {
        int i = after;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i < text.length() && text.charAt(i) == '(';
    }

    /**
     * {@code expression} with each Grafana variable ({@code $name}, {@code ${name}}, {@code [[name]]})
     * replaced by its value.
     *
     * @throws IllegalArgumentException naming a variable without a value
     */
    public static String substitute(String expression, Map<String, String> values) {
        Matcher variable = VARIABLE.matcher(expression);
        StringBuilder result = new StringBuilder();
        while (variable.find()) {
            String name = variable.group(1) != null ? variable.group(1)
                    : variable.group(2) != null ? variable.group(2) : variable.group(3);
            String value = values.get(name);
            if (value == null) {
                throw new IllegalArgumentException("no value for $" + name + " in " + expression);
            }
            variable.appendReplacement(result, Matcher.quoteReplacement(value));
        }
        return variable.appendTail(result).toString();
    }

    /**
     * The selector and label of a variable query {@code label_values(selector, label)}.
     *
     * @throws IllegalArgumentException for any other query
     */
    public static Map.Entry<String, String> labelValues(String query) {
        Matcher matcher = LABEL_VALUES.matcher(query);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not label_values(selector, label): " + query);
        }
        return Map.entry(matcher.group(1), matcher.group(2));
    }
}
