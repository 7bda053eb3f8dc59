package dev.opcua.stack.codegen.schema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.SourceVersion;

/**
 * Reads the comma-separated id lists of the schema directory.
 *
 * <p>Accepts RFC 4180 quoting (a quoted value may hold commas, doubled quotes and line breaks),
 * a leading byte-order mark, and both line-ending styles; blank lines are ignored.
 */
public final class CsvReader {

    /**
     * One parsed row.
     *
     * @param line the 1-based line number where the row starts
     * @param values the values of the row
     */
    public record Row(int line, List<String> values) {

        public Row {
            values = List.copyOf(values);
        }
    }

    private CsvReader() {
    }

    /** Parses a CSV file into rows. */
    public static List<Row> read(Path file) throws IOException {
        return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    }

    /** Parses CSV text into rows; {@code source} names the text in error messages. */
    public static List<Row> parse(String source, String text) {
        List<Row> rows = new ArrayList<>();
        List<String> values = new ArrayList<>();
        StringBuilder value = new StringBuilder();
        int line = 1;
        int rowLine = 1;
        boolean quoted = false;
        boolean rowHasContent = false;
        int i = text.startsWith("\uFEFF") ? 1 : 0;
        while (i < text.length()) {
            char c = text.charAt(i++);
            if (quoted) {
                if (c == '"') {
                    if (i < text.length() && text.charAt(i) == '"') {
                        value.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    if (c == '\n') {
                        line++;
                    }
                    value.append(c);
                }
            } else if (c == '"') {
                if (value.length() > 0) {
                    throw new SchemaException(source + ":" + line + ": quote inside an unquoted value");
                }
                quoted = true;
                rowHasContent = true;
            } else if (c == ',') {
                values.add(value.toString());
                value.setLength(0);
                rowHasContent = true;
            } else if (c == '\r' || c == '\n') {
                if (c == '\r' && i < text.length() && text.charAt(i) == '\n') {
                    i++;
                }
                if (rowHasContent || value.length() > 0) {
                    values.add(value.toString());
                    rows.add(new Row(rowLine, values));
                }
                values = new ArrayList<>();
                value.setLength(0);
                rowHasContent = false;
                line++;
                rowLine = line;
            } else {
                value.append(c);
                rowHasContent = true;
            }
        }
        if (quoted) {
            throw new SchemaException(source + ":" + rowLine + ": unterminated quoted value");
        }
        if (rowHasContent || value.length() > 0) {
            values.add(value.toString());
            rows.add(new Row(rowLine, values));
        }
        return rows;
    }

    /** Reads NodeIds.csv: {@code SymbolicName,NumericId,NodeClass}. */
    public static List<NodeIdEntry> readNodeIds(Path file) throws IOException {
        List<NodeIdEntry> entries = new ArrayList<>();
        Map<String, Integer> names = new HashMap<>();
        for (Row row : read(file)) {
            String where = file + ":" + row.line();
            expectColumns(where, row, 3);
            String name = identifier(where, row.values().get(0).trim());
            int id = parseInt(where, row.values().get(1).trim(), 10);
            if (id < 0) {
                throw new SchemaException(where + ": negative node id " + id);
            }
            duplicate(where, names, name, row.line());
            entries.add(new NodeIdEntry(name, id, row.values().get(2).trim()));
        }
        return entries;
    }

    /** Reads StatusCode.csv: {@code Name,0xHEX,"description"}; the description is ignored. */
    public static List<StatusCodeEntry> readStatusCodes(Path file) throws IOException {
        List<StatusCodeEntry> entries = new ArrayList<>();
        Map<String, Integer> names = new HashMap<>();
        for (Row row : read(file)) {
            String where = file + ":" + row.line();
            if (row.values().size() < 2) {
                throw new SchemaException(where + ": expected at least 2 columns, found " + row.values().size());
            }
            String name = identifier(where, row.values().get(0).trim());
            String hex = row.values().get(1).trim();
            if (!hex.startsWith("0x") && !hex.startsWith("0X")) {
                throw new SchemaException(where + ": status code '" + hex + "' is not a 0x hex number");
            }
            long code = parseLong(where, hex.substring(2), 16);
            if (code < 0 || code > 0xFFFFFFFFL) {
                throw new SchemaException(where + ": status code '" + hex + "' does not fit in 32 bits");
            }
            duplicate(where, names, name, row.line());
            entries.add(new StatusCodeEntry(name, (int) code));
        }
        return entries;
    }

    /** Reads AttributeIds.csv: {@code Name,Id}. */
    public static List<AttributeIdEntry> readAttributeIds(Path file) throws IOException {
        List<AttributeIdEntry> entries = new ArrayList<>();
        Map<String, Integer> names = new HashMap<>();
        for (Row row : read(file)) {
            String where = file + ":" + row.line();
            expectColumns(where, row, 2);
            String name = identifier(where, row.values().get(0).trim());
            duplicate(where, names, name, row.line());
            entries.add(new AttributeIdEntry(name, parseInt(where, row.values().get(1).trim(), 10)));
        }
        return entries;
    }

    private static void expectColumns(String where, Row row, int count) {
        if (row.values().size() != count) {
            throw new SchemaException(where + ": expected " + count + " columns, found " + row.values().size());
        }
    }

    private static String identifier(String where, String name) {
        if (!SourceVersion.isName(name) || name.contains(".")) {
            throw new SchemaException(where + ": '" + name + "' is not a valid Java identifier");
        }
        return name;
    }

    private static void duplicate(String where, Map<String, Integer> names, String name, int line) {
        Integer previous = names.putIfAbsent(name, line);
        if (previous != null) {
            throw new SchemaException(where + ": duplicate name '" + name + "' (first on line " + previous + ")");
        }
    }

    private static int parseInt(String where, String text, int radix) {
        try {
            return Integer.parseInt(text, radix);
        } catch (NumberFormatException e) {
            throw new SchemaException(where + ": '" + text + "' is not a number", e);
        }
    }

    private static long parseLong(String where, String text, int radix) {
        try {
            return Long.parseLong(text, radix);
        } catch (NumberFormatException e) {
            throw new SchemaException(where + ": '" + text + "' is not a number", e);
        }
    }
}
