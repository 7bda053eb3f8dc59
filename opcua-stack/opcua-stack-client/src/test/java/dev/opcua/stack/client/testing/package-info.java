/** Fixtures for tests of the OPC UA client against a real peer server and real network faults. */
package dev.opcua.stack.client.testing;
