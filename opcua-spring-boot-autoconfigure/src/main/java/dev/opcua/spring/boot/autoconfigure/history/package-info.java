/** Wiring of a history store chosen by {@code opcua.server.history.store}: the PostgreSQL store on the application's DataSource. */
package dev.opcua.spring.boot.autoconfigure.history;
