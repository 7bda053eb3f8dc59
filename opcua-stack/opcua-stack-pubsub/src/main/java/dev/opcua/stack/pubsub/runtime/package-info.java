/**
 * PubSub at run time: writer groups that sample and publish on their interval, readers that take messages off
 * the broker and hand their fields on, and the counters both keep.
 */
package dev.opcua.stack.pubsub.runtime;
