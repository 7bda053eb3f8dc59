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
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.annotation.AliasFor;

/**
 * A {@code @SpringBootTest} of an application with an OPC UA server: the whole application starts, its server on
 * a free port ({@code opcua.server.port=0}, injectable with {@code @LocalOpcUaServerPort}) and without a shutdown
 * delay, and the test gets an {@link OpcUaTestClient} connected to it ({@link AutoConfigureOpcUaTestClient}).
 * The test's own properties ({@link #properties()}, {@code @TestPropertySource}, {@code @DynamicPropertySource}) win
 * over that port and delay, which win over the application's configuration files.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest
@AutoConfigureOpcUaTestClient
public @interface OpcUaServerTest {

    /** Properties of the test's environment, {@code key=value}. */
    @AliasFor(annotation = SpringBootTest.class)
    String[] properties() default {};

    /** The component classes of the application context; by default the {@code @SpringBootConfiguration} found. */
    @AliasFor(annotation = SpringBootTest.class)
    Class<?>[] classes() default {};

    /** The web environment: a mock one by default, as for {@code @SpringBootTest}. */
    @AliasFor(annotation = SpringBootTest.class)
    SpringBootTest.WebEnvironment webEnvironment() default SpringBootTest.WebEnvironment.MOCK;

    /** @see AutoConfigureOpcUaTestClient#username() */
    @AliasFor(annotation = AutoConfigureOpcUaTestClient.class)
    String username() default "";

    /** @see AutoConfigureOpcUaTestClient#password() */
    @AliasFor(annotation = AutoConfigureOpcUaTestClient.class)
    String password() default "";

    /** @see AutoConfigureOpcUaTestClient#securityMode() */
    @AliasFor(annotation = AutoConfigureOpcUaTestClient.class)
    MessageSecurityMode securityMode() default MessageSecurityMode.None;

    /** @see AutoConfigureOpcUaTestClient#securityPolicy() */
    @AliasFor(annotation = AutoConfigureOpcUaTestClient.class)
    SecurityPolicy securityPolicy() default SecurityPolicy.None;
}
