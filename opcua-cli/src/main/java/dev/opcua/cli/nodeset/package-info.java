/**
 * NodeSet2 export from the client side: a namespace's nodes found by browsing, their attributes and references
 * read, and written as a NodeSet2 document (Part 6, Annex F) that any stack imports.
 */
package dev.opcua.cli.nodeset;
