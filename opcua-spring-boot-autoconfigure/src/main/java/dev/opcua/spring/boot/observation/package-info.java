/** OPC UA service calls as Micrometer Observations, through the stack's {@code ServiceObserver} hook. */
package dev.opcua.spring.boot.observation;
