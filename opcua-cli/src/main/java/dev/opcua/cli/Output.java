package dev.opcua.cli;

import java.io.PrintWriter;

/**
 * Where a command writes: results on stdout (text lines, or one JSON object per line with {@code --json}), errors
 * and the progress line on stderr. Colours and lines redrawn in place only on a terminal, so that piped output is
 * plain text a script can read.
 */
public final class Output {

    private static final String RESET = "\u001b[0m";
    private static final String CLEAR_LINE = "\r\u001b[2K";

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean json;
    private final boolean color;
    private final boolean terminal;
    private boolean progressShown;

    public Output(PrintWriter out, PrintWriter err, boolean json, boolean color, boolean terminal) {
        this.out = out;
        this.err = err;
        this.json = json;
        this.color = color && terminal && !json;
        this.terminal = terminal;
    }

    /** Whether results are written as JSON lines. */
    public boolean json() {
        return json;
    }

    /** Whether stdout is a terminal: lines may be redrawn in place. */
    public boolean terminal() {
        return terminal;
    }

    /** One result line on stdout. */
    public synchronized void line(String text) {
        clearProgress();
        out.println(text);
        out.flush();
    }

    /** One JSON object on stdout, on a line of its own. */
    public synchronized void json(JsonLine line) {
        clearProgress();
        out.println(line.toJson());
        out.flush();
    }

    /** Writes raw text to stdout (a terminal's in-place redraw). */
    public synchronized void raw(String text) {
        out.print(text);
        out.flush();
    }

    /** A message on stderr. */
    public synchronized void error(String text) {
        clearProgress();
        err.println(color ? "\u001b[31m" + text + RESET : text);
        err.flush();
    }

    /** A note on stderr (what was left out, how to go on). */
    public synchronized void note(String text) {
        clearProgress();
        err.println(text);
        err.flush();
    }

    /** The progress line on stderr, redrawn in place; shown only on a terminal. */
    public synchronized void progress(String text) {
        if (!terminal) {
            return;
        }
        err.print(CLEAR_LINE + text);
        err.flush();
        progressShown = true;
    }

    /** Removes the progress line, if one is shown. */
    public synchronized void clearProgress() {
        if (progressShown) {
            err.print(CLEAR_LINE);
            err.flush();
            progressShown = false;
        }
    }

    public String bold(String text) {
        return style("1", text);
    }

    public String dim(String text) {
        return style("2", text);
    }

    public String green(String text) {
        return style("32", text);
    }

    public String yellow(String text) {
        return style("33", text);
    }

    public String red(String text) {
        return style("31", text);
    }

    public String cyan(String text) {
        return style("36", text);
    }

    /** A status name coloured by its severity: green Good, yellow Uncertain, red Bad. */
    public String status(dev.opcua.stack.core.types.builtin.StatusCode status) {
        String name = status.name();
        return status.isGood() ? green(name) : status.isUncertain() ? yellow(name) : red(name);
    }

    private String style(String code, String text) {
        return color ? "\u001b[" + code + "m" + text + RESET : text;
    }
}
