/** The shared sampling scheduler: monitored items grouped by sampling interval, sampled on absolute deadlines (Part 4, 5.12.1.2). */
package dev.opcua.stack.server.subscriptions.sampling;
