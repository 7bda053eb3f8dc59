package dev.opcua.spring.boot.server.annotation;

import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * A method made from a {@link UaMethod} Java method, with the handle that calls it.
 *
 * @param browseName BrowseName, unique among its siblings
 * @param displayName DisplayName
 * @param description Description, null for none
 * @param member the bean and member, for messages
 * @param inputs one per parameter
 * @param outputs none for void, one per component of a record, otherwise one
 * @param invoker type {@code (Object[])Object}, bound to the holder; returns null for void
 * @param outputReaders for a record result, type {@code (Object)Object} per component; null otherwise
 */
record UaMethodModel(String browseName, String displayName, String description, String member,
        List<UaArgumentModel> inputs, List<UaArgumentModel> outputs, MethodHandle invoker,
        List<MethodHandle> outputReaders) {
}
