/**
 * The OPC UA client: {@link dev.opcua.stack.client.OpcUaClient} (one connection to a server, or to a redundant set,
 * with its session, reconnect and subscriptions), its configuration and its blocking facade; the parts live in the
 * sub-packages (connection, session, services, subscriptions, redundancy, transport).
 */
package dev.opcua.stack.client;
