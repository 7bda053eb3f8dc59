package dev.opcua.spring.boot.client.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/**
 * Calls the annotated bean method with each event of a notifier: an event item (Part 4, 5.12.1.4)
 * whose EventFilter (7.22.3) selects {@link #fields()} and reports only the events {@link #where()}
 * lets through.
 *
 * <pre>{@code
 * @OpcUaEventSubscription(connection = "plant", fields = {"Severity", "Message"}, where = "Severity > 500")
 * void onAlarm(int severity, LocalizedText message) { ... }
 * }</pre>
 *
 * Parameters take the selected fields in order, each converted to its declared type; a
 * {@code Variant[]} or {@code List<Variant>} parameter takes them all, a {@code ClientMonitoredItem}
 * the item. Attributes accept {@code ${...}} placeholders.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective // the listener method is invoked reflectively: a hint for Spring AOT and native images
@Repeatable(OpcUaEventSubscriptions.class)
public @interface OpcUaEventSubscription {

    /** The connection ({@code opcua.client.connections.<name>}); empty for the only one there is. */
    String connection() default "";

    /** The notifier: the Server object {@code i=2253} (every event of the server), an area, a device. */
    String notifier() default "i=2253";

    /**
     * The fields to select, in the order of the parameters: browse names of BaseEventType (Part 5,
     * 6.4.2: EventId, EventType, SourceNode, SourceName, Time, ReceiveTime, Message, Severity) or
     * paths to fields of subtypes ({@code EnabledState/Id}).
     */
    String[] fields() default {"EventType", "Message", "Severity", "Time"};

    /**
     * Which events to report, such as {@code Severity > 500 and SourceName = 'Pump1'}: comparisons
     * of fields with numbers, 'texts', true or false by =, !=, &lt;, &lt;=, &gt;, &gt;=, combined with
     * and, or, not and parentheses; empty for every event. Becomes a ContentFilter (Part 4, 7.7).
     */
    String where() default "";

    /** Queue size of the event item; -1 for 1000. */
    int queueSize() default -1;

    /** Publishing interval of the subscription the item joins; empty for the connection's default. */
    String publishingInterval() default "";
}
