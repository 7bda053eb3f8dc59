package dev.opcua.spring.boot.test.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/** A temporary directory for a test PKI (certificates and keys made for one test run), deleted on {@link #close()}. */
public final class TemporaryPkiDirectory implements AutoCloseable {

    private static final Log log = LogFactory.getLog(TemporaryPkiDirectory.class);

    private final Path path;

    private TemporaryPkiDirectory(Path path) {
        this.path = path;
    }

    /** Creates a directory named {@code prefix} and a random suffix in the system's temporary directory. */
    public static TemporaryPkiDirectory create(String prefix) {
        try {
            return new TemporaryPkiDirectory(Files.createTempDirectory(prefix));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary PKI directory " + prefix + "*", e);
        }
    }

    public Path path() {
        return path;
    }

    /** Deletes the directory and all in it; a file that cannot be deleted is logged, not thrown. */
    @Override
    public void close() {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            List<Path> paths = walk.sorted(Comparator.reverseOrder()).toList();
            for (Path p : paths) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            log.warn("could not delete the temporary PKI directory " + path + ": " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
