package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;

/**
 * A variable annotated {@code @UaVariable(published = ...)}: a field of a PubSub published data set, handed to the
 * PubSub auto-configuration once the server started (the NodeId is known only then).
 *
 * @param dataSet the published data set's name ({@link UaVariable#published()})
 * @param field the field's name ({@link UaVariable#publishedField()}, by default the browse name)
 * @param nodeId the variable's node
 * @param builtinType its DataType's built-in type
 * @param valueRank -1 scalar, 1 one-dimensional array
 * @param member the bean and member, for messages
 */
public record UaPublishedVariable(String dataSet, String field, NodeId nodeId, BuiltinType builtinType,
        int valueRank, String member) {
}
