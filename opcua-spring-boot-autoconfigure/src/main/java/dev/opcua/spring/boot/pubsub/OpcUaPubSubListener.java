package dev.opcua.spring.boot.pubsub;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/**
 * Calls the annotated bean method with what a PubSub reader ({@code opcua.pubsub.readers.<name>}) receives,
 * in the style of the client's {@code @OpcUaSubscription}:
 *
 * <pre>{@code
 * @OpcUaPubSubListener(reader = "line", field = "ActualSpeed")
 * void onSpeed(double bottlesPerMinute) { ... }
 *
 * @OpcUaPubSubListener(reader = "line")
 * void onLine(ReceivedDataSet dataSet) { ... }
 * }</pre>
 *
 * With {@code field}, parameters in any order: one for the field's value converted to its declared type (as for
 * client listeners) and any of {@code DataValue}, {@code Variant}, {@code ReceivedDataSet}; the method is called
 * for each message that carries the field (a delta frame without it does not call it). Without {@code field},
 * one {@code ReceivedDataSet} parameter. A parameter that cannot be fed fails start-up. Calls run on the
 * transport's thread, one reader's messages in order.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective
public @interface OpcUaPubSubListener {

    /** The reader's name under {@code opcua.pubsub.readers}. */
    String reader();

    /** The field whose value the method receives; empty for the whole data set. */
    String field() default "";
}
