package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.roles.WellKnownRole;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * A variable made from a {@link UaVariable} field or getter, with the handles that read and write
 * it: resolved once and bound to the holding object, so a read is one handle call and a conversion.
 *
 * @param browseName BrowseName, unique among its siblings
 * @param displayName DisplayName
 * @param description Description, null for none
 * @param property Java name of the member (field name or property name), as {@link UaValueChangedEvent} names it
 * @param member the bean and member, for messages
 * @param converter maps the Java value to the DataType and back
 * @param getter type {@code ()Object}, bound to the holder
 * @param setter type {@code (Object)void}, bound to the holder; null when read-only
 * @param readRoles the roles that may read, empty for the namespace default
 * @param writeRoles the roles that may write, empty for the namespace default
 * @param limitAlarm the {@link UaLimitAlarm} on the member, null for none
 * @param offNormalAlarm the {@link UaOffNormalAlarm} on the member, null for none
 * @param historizing whether the server records its values (Historizing, HistoryRead bit)
 * @param published the PubSub data set that publishes the variable, null for none
 * @param publishedField the variable's field name in that data set, null when it is not published
 */
record UaVariableModel(String browseName, String displayName, String description, String property, String member,
        UaValueConverter converter, double minimumSamplingInterval, boolean signalsChanges, MethodHandle getter,
        MethodHandle setter, List<WellKnownRole> readRoles, List<WellKnownRole> writeRoles,
        UaLimitAlarmModel limitAlarm, UaOffNormalAlarmModel offNormalAlarm, boolean historizing, String published,
        String publishedField) {

    BuiltinType builtinType() {
        return converter.builtinType();
    }

    NodeId dataType() {
        return converter.dataType();
    }

    int valueRank() {
        return converter.valueRank();
    }

    /** Whether the variable drives an alarm (Part 9). */
    boolean hasAlarm() {
        return limitAlarm != null || offNormalAlarm != null;
    }

    boolean writable() {
        return setter != null;
    }
}
