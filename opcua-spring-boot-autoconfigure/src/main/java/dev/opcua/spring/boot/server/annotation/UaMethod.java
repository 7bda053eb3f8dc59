package dev.opcua.spring.boot.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a method a method of its object, callable with the Call service (Part 4, 5.12.2).
 *
 * <p>Each parameter is an input argument named after the parameter (the parent pom compiles with
 * {@code -parameters}) or after its {@link UaArgument}; the return type gives the output arguments:
 * none for void, one per component for a record, otherwise one named {@code result}. Argument types
 * map like {@link UaVariable} values. The method runs on the server's worker thread; an
 * {@link IllegalArgumentException} it throws answers BadInvalidArgument, an
 * {@link IllegalStateException} BadInvalidState, a {@link dev.opcua.stack.core.UaException} its
 * status, anything else BadInternalError (and is logged).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface UaMethod {

    /** BrowseName; the Java method's name, capitalised ({@code start} -> {@code Start}), when empty. */
    String name() default "";

    /** DisplayName; the browse name when empty. */
    String displayName() default "";

    /** Description; none when empty. */
    String description() default "";
}
