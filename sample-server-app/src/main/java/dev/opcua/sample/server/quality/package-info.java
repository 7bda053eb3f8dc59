/** The quality station: a node manager built in code, as a bean, beside the annotated line. */
package dev.opcua.sample.server.quality;
