/** Listener methods as invokers: the chain of argument resolvers and the conversion of Variants to the declared Java types. */
package dev.opcua.spring.boot.client.listener.adapter;
