package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.stack.server.models.StandardModels;
import java.io.FileNotFoundException;
import java.io.InputStream;
import org.springframework.core.io.AbstractResource;

/**
 * A {@code model:NAME} location of {@code opcua.server.nodesets}: a companion model the server carries as
 * generated Java ({@link StandardModels}), so it has no file to read. It exists when the server knows the name;
 * the properties mapper imports it by name.
 */
final class BuiltInModelResource extends AbstractResource {

    private final String location;

    BuiltInModelResource(String location) {
        this.location = location;
    }

    /** The location as written, e.g. {@code model:di}. */
    String location() {
        return location;
    }

    @Override
    public boolean exists() {
        return StandardModels.isKnown(location);
    }

    @Override
    public boolean isReadable() {
        return false;
    }

    @Override
    public InputStream getInputStream() throws FileNotFoundException {
        throw new FileNotFoundException(getDescription() + " is generated Java, not a file to read");
    }

    @Override
    public String getDescription() {
        return "built-in model [" + location + "]";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BuiltInModelResource that && location.equals(that.location);
    }

    @Override
    public int hashCode() {
        return location.hashCode();
    }
}
