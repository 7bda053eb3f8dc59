/** Security policies, certificates of this application and the per-chunk crypto hook of secure channels (Part 6, 6.7). */
package dev.opcua.stack.core.security;
