/** Test servers on a free port and a client with one session, shared by the actuator and observation tests. */
package dev.opcua.spring.boot.actuate.testing;
