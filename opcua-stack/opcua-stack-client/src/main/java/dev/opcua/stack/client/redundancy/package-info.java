/**
 * Client failover between the servers of a non-transparent redundant set (Part 4, 6.6.2.4): the set
 * configured or discovered ({@link dev.opcua.stack.client.redundancy.RedundancyConfig}), the servers'
 * ServiceLevel watched, and the failover of one {@link dev.opcua.stack.client.OpcUaClient} from the
 * active server to the best other one ({@link dev.opcua.stack.client.redundancy.RedundancyManager}).
 */
package dev.opcua.stack.client.redundancy;
