/** Auto-configuration that observes every OPC UA service call with the application's ObservationRegistry. */
package dev.opcua.spring.boot.autoconfigure.observation;
