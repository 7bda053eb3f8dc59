package dev.opcua.spring.boot.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a field, or a getter, that holds another object a nested object (a component of its parent,
 * Part 3, 5.5) whose {@link UaVariable}, {@link UaMethod} and {@link UaObject} members become its
 * nodes; objects nest to any depth. The member is read once, when the node manager is built: the
 * held object must not be null and stays the one the nodes read and write.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface UaObject {

    /** BrowseName; the field's or the property's name, capitalised, when empty. */
    String name() default "";

    /** DisplayName; the browse name when empty. */
    String displayName() default "";

    /** Description; none when empty. */
    String description() default "";
}
