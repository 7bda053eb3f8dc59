/** Measurements of the transport: request round trips over a secure channel on loopback. */
package dev.opcua.benchmarks.transport;
