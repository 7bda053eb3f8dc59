/** Benchmarks of the OPC UA stack: JMH micro-benchmarks and (later) the load harness. */
package dev.opcua.benchmarks;
