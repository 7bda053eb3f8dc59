/** Companion models built into the server (generated from their NodeSet2 files), loadable without the files. */
package dev.opcua.stack.server.models;
