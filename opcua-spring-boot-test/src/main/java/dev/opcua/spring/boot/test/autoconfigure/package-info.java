/** The wiring of the test support: {@code @OpcUaServerTest}, {@code @AutoConfigureOpcUaTestClient} and their auto-configurations. */
package dev.opcua.spring.boot.test.autoconfigure;
