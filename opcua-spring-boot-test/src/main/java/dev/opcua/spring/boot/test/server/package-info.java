/** Where the application's OPC UA server listens, for tests: {@code @LocalOpcUaServerPort}. */
package dev.opcua.spring.boot.test.server;
