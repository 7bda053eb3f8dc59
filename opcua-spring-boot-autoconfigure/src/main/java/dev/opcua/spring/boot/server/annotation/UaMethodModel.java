package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.server.roles.WellKnownRole;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * A method made from a {@link UaMethod} Java method, with the handle that calls it.
 *
 * @param browseName BrowseName, unique among its siblings
 * @param displayName DisplayName
 * @param description Description, null for none
 * @param member the bean and member, for messages
 * @param inputs one per parameter, except the caller's
 * @param outputs none for void, one per component of a record, otherwise one
 * @param invoker type {@code (Object[])Object}, bound to the holder; returns null for void
 * @param outputReaders for a record result, type {@code (Object)Object} per component; null otherwise
 * @param callerSlot the index of the {@link dev.opcua.stack.server.session.Identity} parameter that
 *     receives the calling session's user, -1 when the method has none
 * @param callRoles the roles that may call, empty for the namespace default
 */
record UaMethodModel(String browseName, String displayName, String description, String member,
        List<UaArgumentModel> inputs, List<UaArgumentModel> outputs, MethodHandle invoker,
        List<MethodHandle> outputReaders, int callerSlot, List<WellKnownRole> callRoles) {

    /** The number of Java parameters: the inputs and the caller. */
    int parameterCount() {
        return inputs.size() + (callerSlot >= 0 ? 1 : 0);
    }
}
