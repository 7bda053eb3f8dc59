/** Hostile peers against a real server socket: each answered with its status, counted, while others are served. */
package dev.opcua.stack.server.hostile;
