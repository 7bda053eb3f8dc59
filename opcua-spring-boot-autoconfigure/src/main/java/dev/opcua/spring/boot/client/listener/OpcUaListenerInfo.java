package dev.opcua.spring.boot.client.listener;

/**
 * A snapshot of one listener, as the Actuator endpoint shows it.
 *
 * @param id the listener's id, {@code <bean>.<method>} for annotated methods
 * @param connection the connection's name
 * @param kind data change or event
 * @param node the node (data change) or notifier (event) as written
 * @param created whether the server has the item now
 * @param status the name of the item's status code (Good, BadNodeIdUnknown, BadWaitingForInitialData ...)
 * @param subscriptionId the server's SubscriptionId, 0 while there is none
 * @param monitoredItemId the server's MonitoredItemId, 0 while there is none
 * @param notifications notifications handed to the listener
 * @param errors notifications it failed on
 * @param problem why the item could not be created, or null
 */
public record OpcUaListenerInfo(String id, String connection, OpcUaListenerEndpoint.Kind kind, String node,
        boolean created, String status, long subscriptionId, long monitoredItemId, long notifications, long errors,
        String problem) {
}
