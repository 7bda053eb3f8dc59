/** The checked generation model: which types are generated, as what Java classes, with which field mappings. */
package dev.opcua.stack.codegen.model;
