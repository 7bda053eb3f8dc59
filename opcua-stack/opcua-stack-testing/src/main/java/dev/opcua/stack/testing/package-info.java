/**
 * Network faults made real for tests and the load harness: a TCP proxy that drops, resets, stalls or refuses the
 * connections it forwards. Test support only; no application depends on it.
 */
package dev.opcua.stack.testing;
