/** Annotations that turn a Spring bean into OPC UA nodes, and the node manager built from such beans. */
package dev.opcua.spring.boot.server.annotation;
