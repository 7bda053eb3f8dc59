/** OPC UA audit records (Part 4, 6.5) handed to Spring Boot's AuditEventRepository, so that /actuator/auditevents lists them. */
package dev.opcua.spring.boot.actuate.audit;
