package dev.opcua.spring.boot.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/**
 * Makes a bean an OPC UA object in the namespace {@link #value()}: the object hangs below the
 * Objects folder (Part 5, 8.2.4) and holds a node for each {@link UaVariable}, {@link UaMethod} and
 * {@link UaObject} member of the bean's class. Beans with the same namespace URI share one node
 * manager; their object names must then differ.
 *
 * <p>The NodeId of each node is a string made of the browse names from the bean's object down,
 * joined by dots ({@code ns=2;s=Filler.Motor.Temperature}), so names must not contain a dot.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Reflective(UaNamespaceReflectiveProcessor.class) // hints for Spring AOT and native images
public @interface OpcUaNamespace {

    /** URI of the namespace, e.g. {@code urn:example:bottling}. */
    String value();

    /** BrowseName of the bean's object; the simple name of the bean's class when empty. */
    String name() default "";

    /** DisplayName of the bean's object; the browse name when empty. */
    String displayName() default "";

    /** Description of the bean's object; none when empty. */
    String description() default "";

    /**
     * Whether the bean's {@link UaVariable} getters and setters (and those of its {@link UaObject}
     * members) return at once without waiting: they read and write fields, never a device, a database
     * or a lock held for long. Then the namespace's node manager is non-blocking and a small Read or
     * Write may run on the server's I/O thread while no request waits ({@code
     * opcua.server.requests.inline-when-idle}). Beans that share a namespace must all say so; by
     * default a bean may block and its requests run on worker threads.
     */
    boolean nonBlocking() default false;
}
