/** Eclipse Milo client factories shared by the Milo end-to-end tests of this module. */
package dev.opcua.spring.boot.testing;
