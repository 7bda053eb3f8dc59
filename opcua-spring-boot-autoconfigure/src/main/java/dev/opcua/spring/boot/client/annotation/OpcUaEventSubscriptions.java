package dev.opcua.spring.boot.client.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/** The container of repeated {@link OpcUaEventSubscription}s. */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective // the listener method is invoked reflectively: a hint for Spring AOT and native images
public @interface OpcUaEventSubscriptions {

    OpcUaEventSubscription[] value();
}
