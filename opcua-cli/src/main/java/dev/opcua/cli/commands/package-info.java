/** The {@code opcua} commands, one class each: what they ask the server and how they print it. */
package dev.opcua.cli.commands;
