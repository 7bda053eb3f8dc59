/** Coverage-guided fuzz targets (Jazzer {@code @FuzzTest}) for the codec, text parsers and certificate loading. */
package dev.opcua.stack.core.fuzz;
