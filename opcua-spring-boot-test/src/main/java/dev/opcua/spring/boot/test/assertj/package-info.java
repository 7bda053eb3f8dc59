/** AssertJ assertions for OPC UA values, status codes and browse results, with status codes named symbolically: {@code OpcUaAssertions}. */
package dev.opcua.spring.boot.test.assertj;
