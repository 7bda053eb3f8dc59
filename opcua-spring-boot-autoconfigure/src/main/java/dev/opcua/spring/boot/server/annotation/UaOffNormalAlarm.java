package dev.opcua.spring.boot.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts an off-normal alarm (Part 9, 5.8.24.2 OffNormalAlarmType) on a {@link UaVariable}: the alarm
 * is active while the value differs from {@link #normalValue()}, which the instance's
 * {@code NormalValue} variable holds and its NormalState property names. SourceNode is the
 * variable's object, which becomes an event notifier; the condition lives in the namespace
 * {@code <namespace URI>/alarms} like a {@link UaLimitAlarm}.
 *
 * <pre>{@code
 * @UaVariable
 * @UaOffNormalAlarm(normalValue = "false", severity = 700)
 * volatile boolean doorOpen;
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface UaOffNormalAlarm {

    /** ConditionName; the variable's browse name followed by {@code Alarm} when empty. */
    String name() default "";

    /**
     * The normal value, written as Java writes a value of the member's type: {@code true},
     * {@code 42}, {@code 1.5}, a text, or an enum constant's name.
     */
    String normalValue();

    /** Severity (1..1000) while the value is off normal. */
    int severity() default 500;

    /** Severity while the value is normal. */
    int normalSeverity() default 100;

    /** Whether operators confirm the alarm after acknowledging it (ConfirmedState and Confirm). */
    boolean confirmable() default true;
}
