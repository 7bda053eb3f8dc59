/** Roles and permissions (Part 3, 4.9 and 5.2.9): well-known roles, role masks of sessions, permission tables of nodes. */
package dev.opcua.stack.server.roles;
