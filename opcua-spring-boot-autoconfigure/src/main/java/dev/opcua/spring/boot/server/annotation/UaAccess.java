package dev.opcua.spring.boot.server.annotation;

/** What clients may do with the Value of a {@link UaVariable} (AccessLevel, Part 3, 8.57). */
public enum UaAccess {

    /** Clients read the value (CurrentRead). */
    READ,

    /** Clients read and write the value (CurrentRead and CurrentWrite); needs a non-final field or a setter. */
    READ_WRITE
}
