/** The View service set (Part 4, 5.8): Browse and BrowseNext over the node managers. */
package dev.opcua.stack.server.services.view;
