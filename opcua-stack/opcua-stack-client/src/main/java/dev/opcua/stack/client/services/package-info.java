/** Service calls of a connected client (Part 4, 5.8 to 5.11): requests built per session, split by OperationLimits. */
package dev.opcua.stack.client.services;
