/**
 * Server state kept in PostgreSQL through plain JDBC: durable subscriptions that outlive a restart (Part 4, 6.8) and
 * the mirrored sessions a HotAndMirrored partner takes over (Part 4, 6.6.2.4.5), in tables of their own beside the
 * history tables.
 */
package dev.opcua.stack.history.jdbc.state;
