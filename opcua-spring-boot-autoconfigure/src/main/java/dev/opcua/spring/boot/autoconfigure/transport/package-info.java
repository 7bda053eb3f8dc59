/** Transport quota properties that the server ({@code opcua.server.transport}) and each client connection share. */
package dev.opcua.spring.boot.autoconfigure.transport;
