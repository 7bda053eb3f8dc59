/** NodeSet2 XML (Part 6, Annex F): companion specifications imported into node managers at start, and any in-memory namespace exported. */
package dev.opcua.stack.server.nodeset;
