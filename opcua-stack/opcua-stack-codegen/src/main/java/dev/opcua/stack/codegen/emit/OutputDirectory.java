package dev.opcua.stack.codegen.emit;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The source root the generator writes to, of which it owns the packages in {@link Packages#OWNED}. */
public final class OutputDirectory {

    private final Path root;

    public OutputDirectory(Path root) {
        this.root = root;
    }

    /**
     * Deletes the previously generated files of the owned packages (those starting with the generated
     * header) and writes the given files.
     *
     * @return the number of deleted files
     * @throws IOException when writing fails, or when an owned package holds a file that was not generated
     *     (it is never deleted)
     */
    public int replace(List<GeneratedFile> files) throws IOException {
        for (GeneratedFile file : files) {
            if (Packages.OWNED.stream().noneMatch(p -> file.relativePath().startsWith(p.replace('.', '/') + "/"))) {
                throw new IllegalStateException(file.relativePath() + " is outside the generated packages");
            }
        }
        List<Path> stale = new ArrayList<>();
        for (String packageName : Packages.OWNED) {
            Path directory = root.resolve(packageName.replace('.', '/'));
            if (!Files.isDirectory(directory)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(directory)) {
                for (Path path : walk.filter(Files::isRegularFile).sorted().toList()) {
                    if (!isGenerated(path)) {
                        throw new IOException(path + " is in a generated package but was not generated"
                                + " (it lacks the generated header); move or delete it and run the generator again");
                    }
                    stale.add(path);
                }
            }
        }
        for (Path path : stale) {
            Files.delete(path);
        }
        for (GeneratedFile file : files) {
            Path path = root.resolve(file.relativePath());
            Files.createDirectories(path.getParent());
            Files.write(path, file.content().getBytes(StandardCharsets.UTF_8));
        }
        return stale.size();
    }

    private static boolean isGenerated(Path path) throws IOException {
        if (!path.getFileName().toString().endsWith(".java")) {
            return false;
        }
        try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            return JavaWriter.HEADER.equals(reader.readLine());
        } catch (java.nio.charset.CharacterCodingException e) {
            return false;
        }
    }
}
