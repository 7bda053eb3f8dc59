package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.server.alarms.Limits;

/**
 * A {@link UaLimitAlarm} checked and resolved: the condition name, its limits and options.
 *
 * @param conditionName ConditionName and last segment of the condition's NodeId
 */
record UaLimitAlarmModel(String conditionName, boolean exclusive, Limits limits, int normalSeverity,
        boolean confirmable) {

    /**
     * @throws OpcUaAnnotationException naming the member when the limits or a severity are wrong
     */
    static UaLimitAlarmModel of(UaLimitAlarm annotation, String variableBrowseName, String where) {
        String name = annotation.name().isEmpty() ? variableBrowseName + "Alarm" : annotation.name();
        if (annotation.normalSeverity() < 1 || annotation.normalSeverity() > 1000) {
            throw new OpcUaAnnotationException(where + ": @UaLimitAlarm normalSeverity " + annotation.normalSeverity()
                    + " is outside 1..1000");
        }
        try {
            Limits limits = new Limits(annotation.highHigh(), annotation.highHighSeverity(), annotation.high(),
                    annotation.highSeverity(), annotation.low(), annotation.lowSeverity(), annotation.lowLow(),
                    annotation.lowLowSeverity());
            return new UaLimitAlarmModel(name, annotation.exclusive(), limits, annotation.normalSeverity(),
                    annotation.confirmable());
        } catch (IllegalArgumentException e) {
            throw new OpcUaAnnotationException(where + ": @UaLimitAlarm " + e.getMessage());
        }
    }
}
