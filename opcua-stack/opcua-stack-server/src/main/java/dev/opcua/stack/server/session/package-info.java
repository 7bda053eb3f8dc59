/** The Session Service Set (Part 4, 5.6): sessions, timeouts, application and user proofs, identities, lock-out. */
package dev.opcua.stack.server.session;
