package dev.opcua.spring.boot.test.autoconfigure;

import dev.opcua.spring.boot.test.client.OpcUaTestClient;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;
import org.springframework.boot.test.context.PropertyMapping.Skip;

/**
 * Gives a {@code @SpringBootTest} an {@link OpcUaTestClient} bean connected to the application's own OPC UA server
 * once it has started, and closed with the context: anonymous over SecurityPolicy None by default, or a user, or a
 * secured channel with a test PKI trusted both ways. The attributes set {@code opcua.test.client.*}; those left at
 * their defaults leave the properties to the test's configuration. Use {@code opcua.server.port=0} (as
 * {@link OpcUaServerTest} does) so that tests do not compete for a port.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@PropertyMapping("opcua.test.client")
public @interface AutoConfigureOpcUaTestClient {

    /** User name of the session; empty for an anonymous session. */
    @PropertyMapping(skip = Skip.ON_DEFAULT_VALUE)
    String username() default "";

    /** Password of the user. */
    @PropertyMapping(skip = Skip.ON_DEFAULT_VALUE)
    String password() default "";

    /**
     * Security mode of the channel; Sign or SignAndEncrypt make a test PKI trusted both ways (and give the server a
     * temporary PKI directory when it has none).
     */
    @PropertyMapping(skip = Skip.ON_DEFAULT_VALUE)
    MessageSecurityMode securityMode() default MessageSecurityMode.None;

    /** Security policy of the channel; None here means the mode's default (Basic256Sha256 for a secured mode). */
    @PropertyMapping(skip = Skip.ON_DEFAULT_VALUE)
    SecurityPolicy securityPolicy() default SecurityPolicy.None;
}
