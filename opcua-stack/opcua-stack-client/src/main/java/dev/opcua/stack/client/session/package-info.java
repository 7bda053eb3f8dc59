/** Client sessions (Part 4, 5.6): CreateSession, ActivateSession with a user identity, CloseSession. */
package dev.opcua.stack.client.session;
