package dev.opcua.spring.boot.server.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a field, or a getter, that holds another object a nested object (a component of its parent,
 * Part 3, 5.5) whose {@link UaVariable}, {@link UaMethod} and {@link UaObject} members become its
 * nodes; objects nest to any depth. The member is read once, when the node manager is built: the
 * held object must not be null and stays the one the nodes read and write.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface UaObject {

    /** BrowseName; the field's or the property's name, capitalised, when empty. */
    String name() default "";

    /** DisplayName; the browse name when empty. */
    String displayName() default "";

    /** Description; none when empty. */
    String description() default "";

    /**
     * The ObjectType of the object, as ExpandedNodeId text, e.g.
     * {@code "nsu=http://opcfoundation.org/UA/Machinery/;i=1012"} (MachineIdentificationType) or
     * {@code "i=58"}; empty for BaseObjectType. The type may be standard or imported
     * ({@code opcua.server.nodesets}). The object is then an instance of the type with its Mandatory
     * children (Part 3, 6.4) and HasTypeDefinition to it; each {@link UaVariable} of the held object binds
     * the child Variable of its BrowseName (a Mandatory one, or an Optional one, which is then created),
     * and its Java type must fit the child's DataType. Children the object does not bind keep the type's
     * default value. A variable naming no child of the type, a type the server does not have, and
     * {@link UaMethod} or nested {@link UaObject} members in a typed object are start-up errors.
     */
    String type() default "";
}
