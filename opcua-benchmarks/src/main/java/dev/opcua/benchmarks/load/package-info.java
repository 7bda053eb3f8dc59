/** The load harness: closed-loop Read/Write load from many sessions, with CPU and allocation per operation. */
package dev.opcua.benchmarks.load;
