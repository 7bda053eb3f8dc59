package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a field, or a getter ({@code getX()} / {@code isX()}), a variable of its object (Part 3,
 * 5.6). Reads call the getter or read the field on the server's worker thread, so the bean keeps
 * the value thread-safe (volatile or atomic); a {@link UaAccess#READ_WRITE} variable is written
 * through the field or the matching setter {@code setX(T)}.
 *
 * <p>The DataType follows from the Java type: boolean Boolean, byte SByte, short Int16, int Int32,
 * long Int64, float Float, double Double, String String, {@link java.time.Instant} DateTime,
 * {@link java.util.UUID} Guid, byte[] ByteString, an enum Int32 (its ordinal), and the stack's own
 * DateTime, ByteString, NodeId, QualifiedName and LocalizedText; arrays and {@link java.util.List}s
 * of these are one-dimensional arrays (ValueRank 1). {@link #dataType()} picks another type held
 * in the same Java type: Byte for short, UInt16 for int, UInt32 or UInt64 for long, String for an
 * enum (its constant's name).
 *
 * <p>A Java record is a structured variable: the server defines a structured DataType from it
 * (Part 3, 5.8.3; Part 6, 5.2.6), with a StructureDefinition of one field per component (named as
 * the component, capitalised), nested records as nested structures, enums as Enumeration DataTypes
 * with EnumStrings, arrays and Lists as array fields, {@code Optional} or {@code @Nullable}
 * components as optional fields; the DataTypes live in the namespace {@code <namespace>/types}.
 * Clients decode the value from the DataTypeDefinition; a write decodes into a new record instance
 * that the field or setter receives (a record constructor's IllegalArgumentException refuses it
 * with BadOutOfRange).
 *
 * <p>A setter that throws {@link IllegalArgumentException} refuses the write with BadOutOfRange;
 * any other exception gives BadInternalError and is logged.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface UaVariable {

    /** BrowseName; the field's or the property's name, capitalised ({@code speed} -> {@code Speed}), when empty. */
    String name() default "";

    /** DisplayName; the browse name when empty. */
    String displayName() default "";

    /** Description; none when empty. */
    String description() default "";

    /** Whether clients may write the value. */
    UaAccess access() default UaAccess.READ;

    /** The DataType when it is not the one inferred from the Java type; {@code Null} infers it. */
    BuiltinType dataType() default BuiltinType.Null;

    /** MinimumSamplingInterval in milliseconds (Part 3, 5.6.2); 0 lets clients sample as fast as the server allows. */
    double minimumSamplingInterval() default 0;

    /**
     * Whether the bean signals every change of this value with a {@link UaValueChangedEvent}: a
     * monitored item that asks for sampling interval 0 is then fed by the signals instead of being
     * sampled (Part 4, 5.12.1.2). Writes by clients are signalled by the server itself. Leave it
     * false when the bean does not signal: items are then sampled through the getter.
     */
    boolean signalsChanges() default false;

    /**
     * The well-known roles that may read the value (Read permission, Part 3, 8.55), e.g.
     * {@code {"Operator", "Engineer"}}; empty keeps the namespace's default permissions. Others get
     * BadUserAccessDenied and a UserAccessLevel without CurrentRead.
     */
    String[] readRoles() default {};

    /**
     * The well-known roles that may write the value (Write permission) of a {@link UaAccess#READ_WRITE}
     * variable; empty keeps the namespace's default permissions. Others get BadUserAccessDenied and a
     * UserAccessLevel without CurrentWrite.
     */
    String[] writeRoles() default {};

    /**
     * Whether the server records the value into its history store (Part 11; {@code opcua.server.history.*}):
     * Historizing true and the AccessLevel HistoryRead bit, so that clients read the past values with
     * HistoryRead. The value is sampled at {@code opcua.server.history.sampling-interval} and recorded when it
     * changed; with {@link #signalsChanges()} each signalled change is recorded at once. Without history
     * enabled the variable only says so.
     */
    boolean historizing() default false;

    /**
     * The published data set ({@code opcua.pubsub.data-sets.<name>}) that carries this variable as a field, so
     * that PubSub writers publish it without a node-id in the properties: the data set is made when the properties
     * have none of that name, else the field is appended to the configured ones; annotated fields follow the
     * order of their declaration. Empty publishes nothing. A record (structured) variable cannot be published.
     */
    String published() default "";

    /** The field's name in the {@link #published()} data set; the variable's browse name when empty. */
    String publishedField() default "";
}
