/** Audit events (Part 4, 6.5; Part 5, 6.4.3 to 6.4.27; Part 9, 5.10): built from what the services did, raised on the Server object by one thread, and handed to listeners. */
package dev.opcua.stack.server.audit;
