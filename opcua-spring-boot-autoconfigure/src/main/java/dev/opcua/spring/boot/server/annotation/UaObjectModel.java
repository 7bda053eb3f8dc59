package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import java.util.List;

/**
 * An object made from an annotated bean or from the value of a {@link UaObject} member, with its
 * variables, methods and nested objects in declaration order (superclass members first).
 *
 * @param browseName BrowseName, unique among its siblings
 * @param displayName DisplayName
 * @param description Description, null for none
 * @param instance the Java object whose members the nodes read, write and call
 * @param javaPath the Java member names from the bean down to this object, dot-separated; empty for the bean
 * @param type the ObjectType ({@link UaObject#type()}), null for none
 * @param where the bean and member, for messages
 */
record UaObjectModel(String browseName, String displayName, String description, Object instance, String javaPath,
        List<UaVariableModel> variables, List<UaMethodModel> methods, List<UaObjectModel> objects,
        ExpandedNodeId type, String where) {

    boolean typed() {
        return type != null;
    }
}
