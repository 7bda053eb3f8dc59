package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.stack.server.models.StandardModels;
import org.springframework.core.io.ProtocolResolver;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

/**
 * Resolves {@code model:NAME} locations to {@link BuiltInModelResource}s. Registered in
 * {@code META-INF/spring.factories}, which Spring Boot applies to every application's context, so a built-in
 * model binds the same whatever the context makes of an unknown prefix: a servlet context makes it a context
 * resource, a reactive one a resource that keeps no path.
 */
public final class BuiltInModelProtocolResolver implements ProtocolResolver {

    @Override
    public Resource resolve(String location, ResourceLoader resourceLoader) {
        return location.startsWith(StandardModels.PREFIX) ? new BuiltInModelResource(location) : null;
    }
}
