package dev.opcua.stack.server.subscriptions.events;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A pattern of the Like operator (Part 4, 7.7.3, "Like operator special characters"): {@code %}
 * matches any string of zero or more characters, {@code _} any single character, {@code \} escapes
 * the next character, {@code [abc]} and {@code [a-c]} any single character of a list or range,
 * {@code [^abc]} any single character not in it. Everything else matches itself, case-sensitively.
 *
 * <p>Compiled once; matching allocates nothing and takes O(pattern x text) steps at worst (one
 * backtrack point: every token but {@code %} consumes exactly one character).
 */
final class LikePattern {

    private static final byte LITERAL = 0;
    private static final byte ANY_ONE = 1;
    private static final byte ANY_SEQUENCE = 2;
    private static final byte IN_SET = 3;
    private static final byte NOT_IN_SET = 4;

    private final byte[] kinds;
    private final char[] literals;
    /** For the set tokens: pairs of inclusive ranges (from, to). */
    private final char[][] sets;

    private LikePattern(byte[] kinds, char[] literals, char[][] sets) {
        this.kinds = kinds;
        this.literals = literals;
        this.sets = sets;
    }

    /**
     * Compiles a pattern.
     *
     * @throws IllegalArgumentException naming the problem: a trailing escape character, an unclosed
     *         {@code [}, or a range whose end precedes its start
     */
    static LikePattern compile(String pattern) {
        int n = pattern.length();
        byte[] kinds = new byte[n];
        char[] literals = new char[n];
        char[][] sets = new char[n][];
        int count = 0;
        int i = 0;
        while (i < n) {
            char c = pattern.charAt(i++);
            switch (c) {
                case '%':
                    if (count == 0 || kinds[count - 1] != ANY_SEQUENCE) {
                        kinds[count++] = ANY_SEQUENCE;
                    }
                    break;
                case '_':
                    kinds[count++] = ANY_ONE;
                    break;
                case '\\':
                    if (i == n) {
                        throw new IllegalArgumentException(
                                "Like pattern '" + pattern + "' ends with the escape character");
                    }
                    kinds[count] = LITERAL;
                    literals[count++] = pattern.charAt(i++);
                    break;
                case '[':
                    i = parseSet(pattern, i, kinds, sets, count++);
                    break;
                default:
                    kinds[count] = LITERAL;
                    literals[count++] = c;
            }
        }
        char[][] usedSets = new char[count][];
        System.arraycopy(sets, 0, usedSets, 0, count);
        return new LikePattern(Arrays.copyOf(kinds, count), Arrays.copyOf(literals, count), usedSets);
    }

    /** Parses a list after its {@code [}; returns the index after its {@code ]}. */
    private static int parseSet(String pattern, int start, byte[] kinds, char[][] sets, int token) {
        int n = pattern.length();
        int i = start;
        boolean negated = i < n && pattern.charAt(i) == '^';
        if (negated) {
            i++;
        }
        List<Character> ranges = new ArrayList<>();
        boolean first = true;
        while (true) {
            if (i >= n) {
                throw new IllegalArgumentException("Like pattern '" + pattern + "' has a '[' at " + (start - 1)
                        + " without its ']'");
            }
            char c = pattern.charAt(i++);
            if (c == ']' && !first) {
                break;
            }
            first = false;
            if (c == '\\') {
                if (i >= n) {
                    throw new IllegalArgumentException("Like pattern '" + pattern + "' ends with the escape character");
                }
                c = pattern.charAt(i++);
            }
            char to = c;
            if (i + 1 < n && pattern.charAt(i) == '-' && pattern.charAt(i + 1) != ']') {
                to = pattern.charAt(i + 1);
                i += 2;
                if (to < c) {
                    throw new IllegalArgumentException("Like pattern '" + pattern + "' has the range " + c + "-" + to
                            + " whose end precedes its start");
                }
            }
            ranges.add(c);
            ranges.add(to);
        }
        char[] set = new char[ranges.size()];
        for (int k = 0; k < set.length; k++) {
            set[k] = ranges.get(k);
        }
        kinds[token] = negated ? NOT_IN_SET : IN_SET;
        sets[token] = set;
        return i;
    }

    /** Whether the whole text matches. */
    boolean matches(String text) {
        int t = 0;
        int p = 0;
        int starToken = -1;
        int starText = 0;
        int n = text.length();
        int m = kinds.length;
        while (t < n) {
            if (p < m && kinds[p] == ANY_SEQUENCE) {
                starToken = p++;
                starText = t;
            } else if (p < m && matchesOne(p, text.charAt(t))) {
                p++;
                t++;
            } else if (starToken >= 0) {
                // Let the last % take one more character and retry from there.
                p = starToken + 1;
                t = ++starText;
            } else {
                return false;
            }
        }
        while (p < m && kinds[p] == ANY_SEQUENCE) {
            p++;
        }
        return p == m;
    }

    private boolean matchesOne(int token, char c) {
        switch (kinds[token]) {
            case LITERAL:
                return literals[token] == c;
            case ANY_ONE:
                return true;
            case IN_SET:
                return inSet(sets[token], c);
            case NOT_IN_SET:
                return !inSet(sets[token], c);
            default:
                return false;
        }
    }

    private static boolean inSet(char[] ranges, char c) {
        for (int i = 0; i < ranges.length; i += 2) {
            if (c >= ranges[i] && c <= ranges[i + 1]) {
                return true;
            }
        }
        return false;
    }
}
