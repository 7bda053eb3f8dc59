package dev.opcua.spring.boot.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a method a method of its object, callable with the Call service (Part 4, 5.11.2).
 *
 * <p>Each parameter is an input argument named after the parameter (the parent pom compiles with
 * {@code -parameters}) or after its {@link UaArgument}, except one of type
 * {@link dev.opcua.stack.server.session.Identity}, which receives the user of the calling session
 * (anonymous, a user name, a certificate subject; null when the server itself calls), for
 * methods that record or check who asked; the return type gives the output arguments:
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

    /**
     * The well-known roles that may call the method (Call permission, Part 3, 8.55), e.g.
     * {@code {"Operator"}}; empty keeps the namespace's default permissions. Others get
     * BadUserAccessDenied and UserExecutable false.
     */
    String[] callRoles() default {};
}
