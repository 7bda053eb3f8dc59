package dev.opcua.spring.boot.server.annotation;

import java.util.Objects;
import org.springframework.context.ApplicationEvent;

/**
 * Signals that the value of a {@link UaVariable} changed, so that subscriptions see it at once: an
 * annotated bean publishes it with Spring's {@link org.springframework.context.ApplicationEventPublisher}
 * (it needs neither the server nor the node manager, so no dependency cycle arises):
 *
 * <pre>{@code
 * publisher.publishEvent(new UaValueChangedEvent(this, "speed"));
 * }</pre>
 *
 * <p>The source is the object that holds the member (the bean, or an object of a {@link UaObject}
 * member), the property its Java name: the field's name or the getter's property name. From the
 * bean, a nested member is also named by its path of Java names ({@code "motor.temperature"}).
 * The server reads the value at once through the getter and hands it to the monitored items of the
 * variable that are not sampled; sampled items see it at their next sample in any case.
 */
public class UaValueChangedEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final String property;

    /**
     * @param source the object holding the changed member
     * @param property the Java name of the member, or a dotted path of names from the bean
     */
    public UaValueChangedEvent(Object source, String property) {
        super(source);
        this.property = Objects.requireNonNull(property, "property");
    }

    /** Java name of the changed member, or its dotted path from the bean. */
    public String property() {
        return property;
    }

    @Override
    public String toString() {
        return "UaValueChangedEvent[" + getSource().getClass().getName() + "." + property + "]";
    }
}
