/** Key derivation, asymmetric and symmetric chunk crypto of the RSA security policies (Part 6, 6.7.2 to 6.7.5). */
package dev.opcua.stack.core.security.crypto;
