package dev.opcua.stack.server.nodeset;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a NodeSet2 file comes from: a name for messages and a way to open it (once, at start).
 *
 * @param name the file's name in error messages, e.g. its path
 */
public record NodeSetSource(String name, Opener opener) {

    /** Opens the XML; the import closes the stream. */
    @FunctionalInterface
    public interface Opener {
        InputStream open() throws IOException;
    }

    public NodeSetSource {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(opener, "opener");
    }

    public static NodeSetSource of(Path path) {
        return new NodeSetSource(path.toString(), () -> Files.newInputStream(path));
    }

    public static NodeSetSource of(URL url) {
        return new NodeSetSource(url.toString(), url::openStream);
    }

    InputStream open() {
        try {
            InputStream in = opener.open();
            if (in == null) {
                throw new NodeSetException(name + ": not found");
            }
            return in;
        } catch (IOException e) {
            throw new NodeSetException(name + ": cannot be read: " + e, e);
        }
    }
}
