/**
 * The shared session store of a HotAndMirrored server set (Part 4, 6.6.2.4.5) from {@code opcua.server.redundancy.*}:
 * PostgreSQL on the application's DataSource.
 */
package dev.opcua.spring.boot.autoconfigure.server.redundancy;
