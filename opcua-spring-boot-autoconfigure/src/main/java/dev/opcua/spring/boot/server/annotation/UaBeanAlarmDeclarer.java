package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.server.alarms.ConditionManager;
import dev.opcua.stack.server.alarms.ConditionManagerBuilder;
import dev.opcua.stack.server.alarms.LimitAlarmOptions;
import java.util.List;
import java.util.function.Consumer;

/**
 * Declares the alarms of the {@link UaLimitAlarm} and {@link UaOffNormalAlarm} variables of one namespace
 * on a {@link ConditionManagerBuilder} (Part 9, 5.8.19, 5.8.20 and 5.8.24.2): each alarm's source is the
 * variable's object, its input the variable, both named by namespace URI and path since their index is
 * known only at start.
 */
final class UaBeanAlarmDeclarer {

    private UaBeanAlarmDeclarer() {
    }

    /**
     * The condition manager of the alarms of the objects, in the namespace {@code alarmsNamespaceUri}; null
     * when no variable has an alarm.
     *
     * @param namespaceUri the namespace of the objects and variables
     */
    static ConditionManager conditionManager(String namespaceUri, String alarmsNamespaceUri,
            List<UaObjectModel> roots) {
        ConditionManagerBuilder builder = ConditionManager.builder(alarmsNamespaceUri);
        int count = 0;
        for (UaObjectModel root : roots) {
            count += declare(builder, namespaceUri, root, root.browseName());
        }
        return count == 0 ? null : builder.build();
    }

    private static int declare(ConditionManagerBuilder builder, String namespaceUri, UaObjectModel object,
            String path) {
        int count = 0;
        for (UaVariableModel variable : object.variables()) {
            UaOffNormalAlarmModel offNormal = variable.offNormalAlarm();
            if (offNormal != null) {
                builder.offNormalAlarm(path + "." + offNormal.conditionName(), o -> o
                        .source(namespaceUri, path, object.browseName())
                        .input(namespaceUri, path + "." + variable.browseName())
                        .conditionName(offNormal.conditionName())
                        .normalValue(offNormal.normalValue())
                        .activeSeverity(offNormal.severity())
                        .normalSeverity(offNormal.normalSeverity())
                        .confirmable(offNormal.confirmable()));
                count++;
            }
            UaLimitAlarmModel alarm = variable.limitAlarm();
            if (alarm == null) {
                continue;
            }
            Consumer<LimitAlarmOptions> options = o -> o
                    .source(namespaceUri, path, object.browseName())
                    .input(namespaceUri, path + "." + variable.browseName())
                    .conditionName(alarm.conditionName())
                    .limits(alarm.limits())
                    .normalSeverity(alarm.normalSeverity())
                    .confirmable(alarm.confirmable());
            String conditionPath = path + "." + alarm.conditionName();
            if (alarm.exclusive()) {
                builder.exclusiveLimitAlarm(conditionPath, options);
            } else {
                builder.nonExclusiveLimitAlarm(conditionPath, options);
            }
            count++;
        }
        for (UaObjectModel child : object.objects()) {
            count += declare(builder, namespaceUri, child, path + "." + child.browseName());
        }
        return count;
    }
}
