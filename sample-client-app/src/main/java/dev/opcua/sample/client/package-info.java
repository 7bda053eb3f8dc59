/** A Spring Boot client of the sample plant: listeners, a supervisory rule, a REST view of the latest values. */
package dev.opcua.sample.client;
