/**
 * The NodeManagement service set (Part 4, 5.7): AddNodes, AddReferences, DeleteNodes and DeleteReferences
 * on the in-memory node managers that accept changes, with the checks, permissions and model change events.
 */
package dev.opcua.stack.server.services.nodemanagement;
