/** The Session Service Set (Part 4, 5.6): sessions, their timeouts, and user identity validation. */
package dev.opcua.stack.server.session;
