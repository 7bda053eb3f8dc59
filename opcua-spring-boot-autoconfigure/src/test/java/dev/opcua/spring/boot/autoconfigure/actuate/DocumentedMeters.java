package dev.opcua.spring.boot.autoconfigure.actuate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The table of meters in {@code docs/OPERATIONS.md} ("Meters"), as the tests read it: one row per meter with its
 * Micrometer name, the name a PromQL query uses, its type, base unit and tags.
 *
 * @param meters by Micrometer name, in the order of the table
 */
record DocumentedMeters(Map<String, Row> meters) {

    /** The text of the unit column for a meter without a base unit. */
    static final String NO_UNIT = "–";

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /**
     * One documented meter.
     *
     * @param prometheus the series name a query uses: with {@code _total} for a counter, the timer's name with
     *        its unit (its {@code _count}, {@code _sum} ... follow)
     * @param unit the base unit, or {@link #NO_UNIT}
     * @param tags the tag keys, without the common tags of every meter of its kind
     */
    record Row(String name, String prometheus, String type, String unit, Set<String> tags) {
    }

    /**
     * Reads the table of {@code docs/OPERATIONS.md} of this repository: the test property {@code opcua.project.dir}
     * names its root, else the module's parent directory.
     */
    static DocumentedMeters load() {
        Path file = Path.of(System.getProperty("opcua.project.dir", ".."), "docs", "OPERATIONS.md");
        try {
            return parse(Files.readAllLines(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
    }

    /** The rows of the table that follows the heading {@code ## Meters}, up to the next heading. */
    static DocumentedMeters parse(List<String> lines) {
        Map<String, Row> meters = new LinkedHashMap<>();
        boolean inSection = false;
        for (String line : lines) {
            if (line.startsWith("#")) {
                inSection = line.strip().equals("## Meters");
                continue;
            }
            if (!inSection || !line.startsWith("| `opcua.")) {
                continue;
            }
            String[] cells = Arrays.stream(line.split("\\|")).map(String::strip).toArray(String[]::new);
            // cells[0] is the empty text before the first '|'
            String name = code(cells[1]);
            Row row = new Row(name, code(cells[2]), cells[3], cells[4].replace("`", ""), codes(cells[5]));
            if (meters.put(name, row) != null) {
                throw new IllegalStateException("docs/OPERATIONS.md lists " + name + " twice");
            }
        }
        if (meters.isEmpty()) {
            throw new IllegalStateException("docs/OPERATIONS.md has no table of meters under '## Meters'");
        }
        return new DocumentedMeters(meters);
    }

    private static String code(String cell) {
        Matcher matcher = CODE.matcher(cell);
        if (!matcher.find()) {
            throw new IllegalStateException("no `name` in the cell '" + cell + "' of docs/OPERATIONS.md");
        }
        return matcher.group(1);
    }

    private static Set<String> codes(String cell) {
        Set<String> codes = new TreeSet<>();
        Matcher matcher = CODE.matcher(cell);
        while (matcher.find()) {
            codes.add(matcher.group(1));
        }
        return codes;
    }
}
