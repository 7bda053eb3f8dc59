package dev.opcua.spring.boot.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a limit alarm (Part 9, 5.8.18) on a numeric {@link UaVariable}: an ExclusiveLimitAlarmType
 * instance (Part 9, 5.8.19), or a NonExclusiveLimitAlarmType one with {@code exclusive = false}
 * (Part 9, 5.8.20), whose InputNode is the variable and whose SourceNode is the variable's object,
 * which becomes an event notifier. The value is evaluated on every change (sampled by the server),
 * and each change of the alarm's state is reported as an event on the object, and so on the Server
 * object; clients acknowledge and confirm it with the methods of the condition.
 *
 * <p>The condition lives in the namespace {@code <namespace URI>/alarms}, its NodeId is the object's
 * path and the condition name ({@code "Filler.Motor.TemperatureAlarm"}). Limits not set are
 * {@code NaN}; at least one is set, ordered LowLow &lt; Low &lt; High &lt; HighHigh.
 *
 * <pre>{@code
 * @UaVariable
 * @UaLimitAlarm(high = 80, highHigh = 95)
 * volatile double temperature;
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface UaLimitAlarm {

    /** ConditionName; the variable's browse name followed by {@code Alarm} when empty. */
    String name() default "";

    /** Whether at most one limit state is active at a time (ExclusiveLimitAlarmType). */
    boolean exclusive() default true;

    double highHigh() default Double.NaN;

    double high() default Double.NaN;

    double low() default Double.NaN;

    double lowLow() default Double.NaN;

    /** Severity (1..1000) in the HighHigh state. */
    int highHighSeverity() default 900;

    int highSeverity() default 600;

    int lowSeverity() default 600;

    int lowLowSeverity() default 900;

    /** Severity while the value is within all limits. */
    int normalSeverity() default 100;

    /** Whether operators confirm the alarm after acknowledging it (ConfirmedState and Confirm). */
    boolean confirmable() default true;
}
