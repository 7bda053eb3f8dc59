/** The server's request pipeline (Part 4, 5): the bounded fair queue, the worker pool that drains it, statistics. */
package dev.opcua.stack.server.requests;
