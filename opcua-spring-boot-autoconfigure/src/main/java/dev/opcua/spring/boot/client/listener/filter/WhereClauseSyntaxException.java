package dev.opcua.spring.boot.client.listener.filter;

/**
 * A where clause that does not follow the grammar of {@link WhereClauseParser}: the message says
 * what was expected, at which position (0-based, into the text) and shows the text with a caret
 * under that position.
 */
public class WhereClauseSyntaxException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String text;
    private final int position;
    private final String problem;

    public WhereClauseSyntaxException(String text, int position, String problem) {
        super(problem + " at position " + position + " of the where clause\n  " + text + "\n  "
                + " ".repeat(Math.max(0, position)) + "^");
        this.text = text;
        this.position = position;
        this.problem = problem;
    }

    /** The where clause as written. */
    public String text() {
        return text;
    }

    /** Where the problem is, 0-based; the text's length at its end. */
    public int position() {
        return position;
    }

    /** What was wrong, without the position. */
    public String problem() {
        return problem;
    }
}
