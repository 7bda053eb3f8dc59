/** Auto-configuration of annotated OPC UA client listeners: the post-processor, the registry and the error handler. */
package dev.opcua.spring.boot.autoconfigure.client.annotation;
