/** Reusable Spring pieces of the OPC UA server: its lifecycle, its started event and builder customizers. */
package dev.opcua.spring.boot.server;
