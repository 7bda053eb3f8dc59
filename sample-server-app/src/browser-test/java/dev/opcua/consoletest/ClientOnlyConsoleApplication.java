package dev.opcua.consoletest;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * An application with OPC UA client connections and no server, for the console's browser test: only
 * auto-configuration, outside the sample's packages so that the sample's component scan never finds it.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ClientOnlyConsoleApplication {
}
