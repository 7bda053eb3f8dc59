/** Part 13 aggregates and Part 11 at-time interpolation computed from raw history values, free of any store or service. */
package dev.opcua.stack.server.history.aggregate;
