/** The load harness: request, connect and subscription load from many sessions, with CPU and bytes per operation. */
package dev.opcua.benchmarks.load;
