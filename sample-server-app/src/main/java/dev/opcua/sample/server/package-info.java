/** The sample plant server: a production line simulated in an application namespace. */
package dev.opcua.sample.server;
