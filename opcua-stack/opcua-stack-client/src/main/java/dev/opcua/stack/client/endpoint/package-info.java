/** Choosing a server endpoint from GetEndpoints (Part 4, 5.4.4) and trusting its certificate (Part 4, 6.1.3). */
package dev.opcua.stack.client.endpoint;
