/** Historical Access benchmarks: paged raw HistoryRead and processed aggregates over a loopback channel. */
package dev.opcua.benchmarks.history;
