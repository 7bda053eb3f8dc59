/** Core of the OPC UA stack: types, encodings and the exceptions shared by server and client. */
package dev.opcua.stack.core;
