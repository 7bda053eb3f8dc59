package dev.opcua.spring.boot.client.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/**
 * Calls the annotated bean method with each new value of a node's attribute: a data item
 * (MonitoredItem, Part 4, 5.12) of a subscription (5.13) the client keeps and restores after every
 * reconnect.
 *
 * <pre>{@code
 * @OpcUaSubscription(connection = "plant", node = "nsu=urn:acme:line1;s=Line1.Speed", samplingInterval = "500ms")
 * void onSpeed(double speed, DataValue raw) { ... }
 * }</pre>
 *
 * Parameters, in any order: one for the value converted to its declared type (numbers range-checked,
 * String, boolean, Instant, LocalizedText, NodeId, arrays ...), and any of {@code DataValue} (status
 * and timestamps), {@code Variant}, {@code StatusCode}, {@code ClientMonitoredItem}. A parameter that
 * cannot be fed fails start-up; a value that does not fit at run time is an error of that delivery
 * (logged and counted), the subscription goes on. Attributes accept {@code ${...}} placeholders.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective // the listener method is invoked reflectively: a hint for Spring AOT and native images
@Repeatable(OpcUaSubscriptions.class)
public @interface OpcUaSubscription {

    /** The connection ({@code opcua.client.connections.<name>}); empty for the only one there is. */
    String connection() default "";

    /** The node, as {@code nsu=<namespace URI>;s=<id>}, {@code ns=<index>;i=<id>} or {@code i=<id>}. */
    String node();

    /** The attribute monitored (Part 3, 5.9 names: Value, DisplayName, EventNotifier ...). */
    String attribute() default "Value";

    /** Sampling interval ("500ms", "1s", "0ms" for the fastest the server offers); empty for the connection's default. */
    String samplingInterval() default "";

    /** Queue size of the item (Part 4, 5.12.1.5); -1 for the connection's default. */
    int queueSize() default -1;

    /** Whether a full queue discards its oldest value (else the newest). */
    boolean discardOldest() default true;

    /** Deadband of the DataChangeFilter (Part 4, 7.22.2). */
    DeadbandType deadbandType() default DeadbandType.NONE;

    /** The deadband: in the value's units (ABSOLUTE) or percent of the EURange (PERCENT, Part 8, 6.2). */
    double deadband() default 0;

    /**
     * Publishing interval of the subscription the item joins ("1s"); empty for the connection's
     * default. Listeners of one connection with the same interval share one subscription.
     */
    String publishingInterval() default "";

    /**
     * Makes the subscription the item joins durable for this long ("2h"; whole hours, rounded up): the
     * client calls SetSubscriptionDurable (Part 5, 9.3; Part 4, 6.8) right after creating it, the server
     * keeps it and queues its items' values while the client is away (a restart of the client's session,
     * a network outage) up to that lifetime, and the client transfers it when it comes back. The server
     * revises a longer lifetime to its maximum. Empty: an ordinary subscription. Listeners share one
     * subscription only when they have the same publishing interval and the same durable lifetime.
     */
    String durable() default "";

    /** DeadbandType (Part 4, 7.22.2). */
    enum DeadbandType {
        /** Every change of value or status. */
        NONE,
        /** A change of the value by more than the deadband. */
        ABSOLUTE,
        /** A change by more than the deadband percent of the node's EURange (AnalogItems only). */
        PERCENT
    }
}
