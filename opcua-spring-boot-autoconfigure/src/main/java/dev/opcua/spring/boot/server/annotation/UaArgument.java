package dev.opcua.spring.boot.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Names and describes an input argument of a {@link UaMethod} (Argument, Part 3, 8.6). */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface UaArgument {

    /** Name of the argument; the parameter's name when empty. */
    String name() default "";

    /** Description of the argument; none when empty. */
    String description() default "";
}
