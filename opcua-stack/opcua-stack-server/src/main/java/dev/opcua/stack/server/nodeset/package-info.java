/** NodeSet2 XML (Part 6, Annex F): companion models imported at start, and any in-memory namespace exported. */
package dev.opcua.stack.server.nodeset;
