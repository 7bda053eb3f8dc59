package dev.opcua.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/** One run of {@code opcua} with its exit code and what it wrote, as piped output (no terminal). */
record CliRun(int exitCode, String out, String err) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static CliRun of(String... args) {
        return run(false, args);
    }

    /** As on a terminal: colours, lines redrawn in place, the progress line. */
    static CliRun onTerminal(String... args) {
        return run(true, args);
    }

    private static CliRun run(boolean terminal, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OpcUaCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), terminal, args);
        return new CliRun(code, out.toString(), err.toString());
    }

    List<String> lines() {
        return out.isEmpty() ? List.of() : List.of(out.split("\\R"));
    }

    /** Each line of stdout parsed as one JSON object. */
    List<JsonNode> json() throws Exception {
        List<JsonNode> objects = new ArrayList<>();
        for (String line : lines()) {
            objects.add(JSON.readTree(line));
        }
        return objects;
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
    }
}
