/** Annotated listener methods of OPC UA clients: @OpcUaSubscription, @OpcUaEventSubscription and the bean post-processor that registers them. */
package dev.opcua.spring.boot.client.annotation;
