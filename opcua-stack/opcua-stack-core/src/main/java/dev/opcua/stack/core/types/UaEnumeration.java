package dev.opcua.stack.core.types;

/** An enumerated value, encoded as its Int32 value (Part 6, 5.2.4). */
public interface UaEnumeration {

    /** Numeric value of this enumeration constant. */
    int value();
}
