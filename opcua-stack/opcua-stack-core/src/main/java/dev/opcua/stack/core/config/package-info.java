/** Plain configuration records of the stack, such as {@link dev.opcua.stack.core.config.TransportQuotas}. */
package dev.opcua.stack.core.config;
