/**
 * The {@code opcua} command line: its entry point, the connection and output options every command shares, profiles,
 * and how failures become messages and exit codes.
 */
package dev.opcua.cli;
