/**
 * Start-up measurement: a probe that launches a server process, times it until its OPC UA port answers
 * GetEndpoints and reads its resident memory once idle ({@code perf/startup.sh} runs it).
 */
package dev.opcua.benchmarks.startup;
