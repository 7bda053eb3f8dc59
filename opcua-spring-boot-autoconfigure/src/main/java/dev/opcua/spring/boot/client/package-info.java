/** OPC UA clients in a Spring application: the connection qualifier, customizers, the registry of clients and their lifecycle. */
package dev.opcua.spring.boot.client;
