package dev.opcua.stack.codegen;

import java.io.IOException;
import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Compares two file trees byte for byte. */
final class SourceTrees {

    /** A log that discards the generator's progress output. */
    static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private SourceTrees() {
    }

    /** Relative paths (with {@code /}) of every regular file below {@code root}, sorted. */
    static TreeSet<String> files(Path root) throws IOException {
        TreeSet<String> files = new TreeSet<>();
        if (!Files.isDirectory(root)) {
            return files;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(Files::isRegularFile)
                    .forEach(p -> files.add(root.relativize(p).toString().replace('\\', '/')));
        }
        return files;
    }

    /** One line per difference: files only in one tree, and files whose bytes differ. */
    static List<String> differences(Path expected, Path actual) throws IOException {
        TreeSet<String> expectedFiles = files(expected);
        TreeSet<String> actualFiles = files(actual);
        List<String> differences = new ArrayList<>();
        for (String file : expectedFiles) {
            if (!actualFiles.contains(file)) {
                differences.add("missing: " + file);
            } else if (!Arrays.equals(Files.readAllBytes(expected.resolve(file)), Files.readAllBytes(actual.resolve(file)))) {
                differences.add("differs: " + file);
            }
        }
        for (String file : actualFiles) {
            if (!expectedFiles.contains(file)) {
                differences.add("extra: " + file);
            }
        }
        return differences;
    }
}
