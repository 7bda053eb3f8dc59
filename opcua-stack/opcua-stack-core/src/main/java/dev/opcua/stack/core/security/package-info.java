/** Security policies and the per-chunk crypto hook of secure channels (Part 6, 6.7.2 and 6.7.5). */
package dev.opcua.stack.core.security;
