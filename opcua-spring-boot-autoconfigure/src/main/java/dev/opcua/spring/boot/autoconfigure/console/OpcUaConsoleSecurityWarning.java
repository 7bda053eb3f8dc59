package dev.opcua.spring.boot.autoconfigure.console;

import dev.opcua.spring.boot.console.OpcUaConsoleController;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;

/**
 * Says once the application has started that the console is open to anyone who reaches the HTTP port,
 * because Spring Security is not on the class path: it lists sessions and clients and reads any node.
 */
class OpcUaConsoleSecurityWarning implements ApplicationListener<ApplicationStartedEvent> {

    private static final Logger log = LoggerFactory.getLogger(OpcUaConsoleSecurityWarning.class);

    @Override
    public void onApplicationEvent(ApplicationStartedEvent event) {
        log.warn("The OPC UA console at {} is not protected: Spring Security is not on the class path, so "
                + "anyone who reaches this HTTP port sees the sessions and reads the address space. Add "
                + "spring-boot-starter-security, or set opcua.console.enabled=false", OpcUaConsoleController.PATH);
    }
}
