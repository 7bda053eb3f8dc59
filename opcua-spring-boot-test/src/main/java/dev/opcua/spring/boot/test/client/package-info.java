/** An OPC UA client of the application's own server for tests, connected anonymously or as a user, with a test PKI trusted both ways when secured. */
package dev.opcua.spring.boot.test.client;
