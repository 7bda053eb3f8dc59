/** Encoding contracts: codecs per structure, the codec registry, decoding limits and their errors. */
package dev.opcua.stack.core.encoding;
