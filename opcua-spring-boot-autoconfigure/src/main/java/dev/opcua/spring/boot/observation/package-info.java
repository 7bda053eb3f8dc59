/**
 * OPC UA service calls as Micrometer Observations: the server's through the stack's {@code ServiceObserver}
 * hook, a client's requests through its {@code RequestObserver} hook.
 */
package dev.opcua.spring.boot.observation;
