/** NodeSet2 XML import (Part 6, Annex F): companion specifications loaded into node managers at start. */
package dev.opcua.stack.server.nodeset;
