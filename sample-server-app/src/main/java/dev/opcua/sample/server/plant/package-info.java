/** The simulated filling line: an annotated bean with nested motors, and the simulation that drives it. */
package dev.opcua.sample.server.plant;
