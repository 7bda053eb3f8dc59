package dev.opcua.stack.server.nodeset;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Where a NodeSet2 file comes from: a name for messages and a way to open it (once, at start), or a
 * document already built in code ({@link NodeSetData}, e.g. a generated model of
 * {@code dev.opcua.stack.server.models.StandardModels}).
 *
 * @param name the file's name in error messages, e.g. its path
 * @param opener opens the XML; null when {@code data} is given
 * @param data builds the document; null for XML
 */
public record NodeSetSource(String name, Opener opener, Supplier<NodeSetData> data) {

    /** Opens the XML; the import closes the stream. */
    @FunctionalInterface
    public interface Opener {
        InputStream open() throws IOException;
    }

    public NodeSetSource {
        Objects.requireNonNull(name, "name");
        if ((opener == null) == (data == null)) {
            throw new IllegalArgumentException(name + ": a nodeset source has either an opener or data");
        }
    }

    /** XML opened by {@code opener}. */
    public NodeSetSource(String name, Opener opener) {
        this(name, Objects.requireNonNull(opener, "opener"), null);
    }

    /** A document built in code (called once, at start); the import treats it as the XML it was made from. */
    public static NodeSetSource ofData(String name, Supplier<NodeSetData> data) {
        return new NodeSetSource(name, null, Objects.requireNonNull(data, "data"));
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
