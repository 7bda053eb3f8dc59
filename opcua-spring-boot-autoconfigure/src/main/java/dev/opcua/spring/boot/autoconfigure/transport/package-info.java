/**
 * Transport quota properties that the server ({@code opcua.server.transport}) and each client connection share, and
 * the JVM-wide Netty settings ({@code opcua.netty.*}).
 */
package dev.opcua.spring.boot.autoconfigure.transport;
