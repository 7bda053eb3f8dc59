package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.types.builtin.Variant;

/**
 * A {@link UaOffNormalAlarm} checked and resolved: the condition name, the normal value as the
 * variable's DataType holds it, and the severities.
 */
record UaOffNormalAlarmModel(String conditionName, Variant normalValue, int severity, int normalSeverity,
        boolean confirmable) {

    /**
     * @param javaType the member's type (field type or getter return type)
     * @throws OpcUaAnnotationException naming the member when the normal value does not parse as that
     *     type or a severity is outside 1..1000
     */
    static UaOffNormalAlarmModel of(UaOffNormalAlarm annotation, String variableBrowseName, Class<?> javaType,
            UaValueConverter converter, String where) {
        String name = annotation.name().isEmpty() ? variableBrowseName + "Alarm" : annotation.name();
        for (int severity : new int[] {annotation.severity(), annotation.normalSeverity()}) {
            if (severity < 1 || severity > 1000) {
                throw new OpcUaAnnotationException(where + ": @UaOffNormalAlarm severity " + severity
                        + " is outside 1..1000");
            }
        }
        if (converter.valueRank() != -1) {
            throw new OpcUaAnnotationException(where + ": @UaOffNormalAlarm needs a scalar variable, not an array");
        }
        Object value = parse(annotation.normalValue(), javaType, where);
        return new UaOffNormalAlarmModel(name, converter.toVariant(value), annotation.severity(),
                annotation.normalSeverity(), annotation.confirmable());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object parse(String text, Class<?> type, String where) {
        try {
            if (type == boolean.class || type == Boolean.class) {
                if (!text.equals("true") && !text.equals("false")) {
                    throw new IllegalArgumentException("not true or false");
                }
                return Boolean.valueOf(text);
            }
            if (type == byte.class || type == Byte.class) {
                return Byte.valueOf(text);
            }
            if (type == short.class || type == Short.class) {
                return Short.valueOf(text);
            }
            if (type == int.class || type == Integer.class) {
                return Integer.valueOf(text);
            }
            if (type == long.class || type == Long.class) {
                return Long.valueOf(text);
            }
            if (type == float.class || type == Float.class) {
                return Float.valueOf(text);
            }
            if (type == double.class || type == Double.class) {
                return Double.valueOf(text);
            }
            if (type == String.class) {
                return text;
            }
            if (type.isEnum()) {
                return Enum.valueOf((Class<? extends Enum>) type, text);
            }
        } catch (IllegalArgumentException e) {
            throw new OpcUaAnnotationException(where + ": @UaOffNormalAlarm normalValue '" + text + "' is not a "
                    + type.getSimpleName() + " (" + e.getMessage() + ")");
        }
        throw new OpcUaAnnotationException(where + ": @UaOffNormalAlarm supports boolean, numeric, String and enum "
                + "variables, not " + type.getSimpleName());
    }
}
