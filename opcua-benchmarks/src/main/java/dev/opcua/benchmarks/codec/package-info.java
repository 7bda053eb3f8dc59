/** JMH micro-benchmarks of the UA Binary encoder and decoder on service messages. */
package dev.opcua.benchmarks.codec;
