package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.stack.server.namespace0.Namespace0Loader;
import java.util.List;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What the OPC UA server loads at run time that ahead-of-time processing cannot see: the compact
 * namespace-0 address space, a class-path resource, and the Java 21 virtual-thread API that the request
 * pool looks up reflectively (it compiles for Java 17). The annotated beans get their hints from
 * {@code @OpcUaNamespace} itself, the properties from {@code @EnableConfigurationProperties}.
 */
class OpcUaServerRuntimeHints implements RuntimeHintsRegistrar {

    /** The class-path location of the namespace-0 resource ({@link Namespace0Loader#RESOURCE}). */
    static final String NAMESPACE0_RESOURCE = Namespace0Loader.class.getPackageName().replace('.', '/') + "/"
            + Namespace0Loader.RESOURCE;

    private static final TypeReference THREAD = TypeReference.of(Thread.class);
    private static final TypeReference THREAD_BUILDER = TypeReference.of("java.lang.Thread$Builder");

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern(NAMESPACE0_RESOURCE);
        // by name: they do not exist on Java 17, where the pool falls back to platform threads
        hints.reflection().registerType(THREAD, type -> type
                .withMethod("ofVirtual", List.of(), ExecutableMode.INVOKE)
                .withMethod("isVirtual", List.of(), ExecutableMode.INVOKE));
        hints.reflection().registerType(THREAD_BUILDER, type -> type
                .withMethod("name", List.of(TypeReference.of(String.class), TypeReference.of(long.class)),
                        ExecutableMode.INVOKE)
                .withMethod("factory", List.of(), ExecutableMode.INVOKE));
    }
}
