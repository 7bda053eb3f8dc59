package dev.opcua.cli.commands;

import dev.opcua.cli.Output;
import java.util.List;

/** Rows in columns as wide as their widest cell, the first row (the header) in bold. */
final class Table {

    private Table() {
    }

    static void print(Output output, List<String[]> rows) {
        int columns = rows.get(0).length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        for (int r = 0; r < rows.size(); r++) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                String cell = rows.get(r)[c];
                line.append(c == columns - 1 ? cell : cell + " ".repeat(widths[c] - cell.length() + 2));
            }
            String text = line.toString().stripTrailing();
            output.line(r == 0 ? output.bold(text) : text);
        }
    }
}
