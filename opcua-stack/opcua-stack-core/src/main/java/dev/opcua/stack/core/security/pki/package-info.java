/** Application certificates (create, load, save), the PKI directory and certificate validation (Part 4, 6.1.3). */
package dev.opcua.stack.core.security.pki;
