/** Small concurrency helpers of the server: named thread factories. */
package dev.opcua.stack.server.util;
