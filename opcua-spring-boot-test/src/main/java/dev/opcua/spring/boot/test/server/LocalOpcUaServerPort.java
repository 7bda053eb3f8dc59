package dev.opcua.spring.boot.test.server;

import dev.opcua.spring.boot.server.OpcUaServerPortInfoListener;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.beans.factory.annotation.Value;

/**
 * Injects the port the application's OPC UA server bound, the value of {@code local.opcua.server.port}: the way
 * to reach a server started with {@code opcua.server.port=0}, as {@code @LocalServerPort} is for the web server.
 * The property exists once the server has started, so inject it into tests (fields, parameters), not into beans
 * created before the context has started.
 */
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Value("${" + OpcUaServerPortInfoListener.PORT_PROPERTY + "}")
public @interface LocalOpcUaServerPort {
}
