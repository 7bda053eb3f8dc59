/** Bench servers: the same address space served by our OpcUaServer and by Eclipse Milo, for the load harness. */
package dev.opcua.benchmarks.server;
