/** Dispatch of decoded requests to service handlers on worker threads, and their responses (Part 4, 5). */
package dev.opcua.stack.server.services;
