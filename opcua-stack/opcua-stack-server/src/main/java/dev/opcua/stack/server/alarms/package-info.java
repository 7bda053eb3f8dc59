/** Alarms and Conditions (Part 9): condition instances, their methods and state machines, ConditionRefresh and limit alarms. */
package dev.opcua.stack.server.alarms;
