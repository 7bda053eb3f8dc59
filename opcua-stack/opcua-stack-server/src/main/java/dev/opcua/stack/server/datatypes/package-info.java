/** Structured and enumerated DataTypes defined in code from Java records and enums (Part 3, 5.8.3; Part 6, 5.2.6). */
package dev.opcua.stack.server.datatypes;
