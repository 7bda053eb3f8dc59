/**
 * Auto-configuration that observes every OPC UA service call of the server and every request of the
 * clients with the application's ObservationRegistry.
 */
package dev.opcua.spring.boot.autoconfigure.observation;
