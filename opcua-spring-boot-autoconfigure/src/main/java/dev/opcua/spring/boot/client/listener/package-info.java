/** Listener containers of OPC UA clients: endpoint descriptions, one container (subscription and items) per connection and publishing interval, their registry and error handling. */
package dev.opcua.spring.boot.client.listener;
