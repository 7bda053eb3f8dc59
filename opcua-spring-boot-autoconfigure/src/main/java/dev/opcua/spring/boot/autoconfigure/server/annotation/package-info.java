/** Auto-configuration that turns {@code @OpcUaNamespace} beans into node managers of the auto-configured server. */
package dev.opcua.spring.boot.autoconfigure.server.annotation;
