package dev.opcua.stack.server.redundancy;

/**
 * A health check of the application that lowers the ServiceLevel (Part 4, 6.6.2.4.2): a node manager whose data
 * source (a PLC, a database, a broker) is gone answers {@link ServiceLevelStatus#noData} or {@link
 * ServiceLevelStatus#degraded}, and the server advertises the lowest level of all its contributors, so that
 * clients of a redundant set move to a partner that still reaches the data.
 *
 * <p>Asked on every read of Server.ServiceLevel (and every sample of a monitored item on it): answer from state
 * the contributor keeps, without I/O. A contributor that throws counts as Degraded at {@link
 * ServiceLevelCalculator#FAILED_CHECK_LEVEL}; one that answers null counts as healthy.
 */
@FunctionalInterface
public interface ServiceLevelContributor {

    /** The level this contributor allows now, with its reason; {@link ServiceLevelStatus#healthy()} when fine. */
    ServiceLevelStatus assess();
}
