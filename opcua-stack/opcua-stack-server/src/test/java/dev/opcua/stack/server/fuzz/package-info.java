/** Coverage-guided fuzz targets (Jazzer {@code @FuzzTest}) for the server's parsers. */
package dev.opcua.stack.server.fuzz;
