/**
 * Non-transparent server redundancy (Part 4, 6.6.2) and the health a server advertises to clients: the
 * {@link dev.opcua.stack.server.redundancy.RedundancySettings} of a redundant server set (mode, this server's
 * ServerUri, the partners), the Server object's ServerRedundancy nodes ({@link
 * dev.opcua.stack.server.redundancy.RedundancyObject}, Part 5, 6.3.7 and 6.3.9) and the ServiceLevel computed on
 * every read ({@link dev.opcua.stack.server.redundancy.ServiceLevelCalculator}, Part 4, 6.6.2.4.2; Part 5, 6.3.1).
 *
 * <p>Cold, Warm and Hot need no shared state: each server of the set serves its own sessions, and clients fail
 * over by ServiceLevel. HotAndMirrored keeps sessions and subscriptions in a shared
 * {@link dev.opcua.stack.server.redundancy.SessionStateStore}, written by the
 * {@link dev.opcua.stack.server.redundancy.SessionMirror} as it changes (messages appended when sent and deleted when
 * acknowledged, {@link dev.opcua.stack.server.redundancy.SessionChanges}), from which a partner takes a session over
 * when its client activates it there; meanwhile the partner samples that session's data items itself (standby
 * sampling), so that the takeover adds what changed after the last write.
 */
package dev.opcua.stack.server.redundancy;
