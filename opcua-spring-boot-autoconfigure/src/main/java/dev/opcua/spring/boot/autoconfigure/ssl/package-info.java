/** Application certificates taken from Spring SSL bundles ({@code spring.ssl.bundle.*}), and their reloads. */
package dev.opcua.spring.boot.autoconfigure.ssl;
