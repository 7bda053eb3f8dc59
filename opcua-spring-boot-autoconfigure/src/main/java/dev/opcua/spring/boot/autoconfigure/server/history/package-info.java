/** Auto-configuration of Historical Access from {@code opcua.server.history.*}: the history store and the recording. */
package dev.opcua.spring.boot.autoconfigure.server.history;
