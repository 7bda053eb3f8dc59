/** The View service set (Part 4, 5.8): Browse, BrowseNext, TranslateBrowsePathsToNodeIds, RegisterNodes, UnregisterNodes. */
package dev.opcua.stack.server.services.view;
