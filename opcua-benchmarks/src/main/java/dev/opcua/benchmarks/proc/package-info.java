/**
 * What Linux's {@code /proc} tells of a process: its CPU time and resident memory, read the same way by the load
 * harness and the start-up probe.
 */
package dev.opcua.benchmarks.proc;
