package dev.opcua.spring.boot.client;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Selects the {@link dev.opcua.stack.client.OpcUaClient} of one named connection
 * ({@code opcua.client.connections.<name>}) where an application has several:
 * {@code @OpcUaConnection("plant") OpcUaClient plant}.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE,
        ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface OpcUaConnection {

    /** The connection's name, the key under {@code opcua.client.connections}. */
    String value();
}
