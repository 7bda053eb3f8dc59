package dev.opcua.spring.boot.console;

/**
 * Where the console's writes are recorded. The auto-configured one publishes an {@code AuditApplicationEvent} of
 * type {@value #TYPE} (Spring Boot's {@code AuditListener} hands it to the application's
 * {@code AuditEventRepository}, shown by {@code /actuator/auditevents}) with the node, the DataType, the old and
 * the new value and the status.
 */
@FunctionalInterface
public interface ConsoleWriteAudit {

    /** The audit event type of a write from the console. */
    String TYPE = "OPCUA_CONSOLE_WRITE";

    /** Records nothing. */
    ConsoleWriteAudit NONE = (user, write) -> { };

    /** Records one write, taken by the server or refused with a Bad status. */
    void written(String user, ConsoleAddressSpace.ConsoleWrite write);
}
