/** Event filters of annotated listeners: select clauses from field names and where clauses from a small text grammar (Part 4, 7.7 and 7.22.3). */
package dev.opcua.spring.boot.client.listener.filter;
