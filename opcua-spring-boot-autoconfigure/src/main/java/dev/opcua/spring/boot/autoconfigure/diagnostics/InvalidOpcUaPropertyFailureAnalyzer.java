package dev.opcua.spring.boot.autoconfigure.diagnostics;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link InvalidOpcUaPropertyException} as the start-up failure: the key, the value,
 * what is wrong and what the key accepts, instead of a stack trace through bean creation. An error
 * that names no key (a rule of the stack on several values) is reported with its reason alone.
 */
public class InvalidOpcUaPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidOpcUaPropertyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidOpcUaPropertyException cause) {
        if (cause.getKey() == null) {
            return new FailureAnalysis("The " + cause.getSubject() + " could not be configured:\n\n"
                    + "    Reason: " + cause.getReason() + "\n",
                    "Update your application's configuration to " + cause.getAllowed(), cause);
        }
        String description = "The " + cause.getSubject() + " could not be configured:\n\n"
                + "    Property: " + cause.getKey() + "\n"
                + "    Value: " + describe(cause.getValue()) + "\n"
                + "    Reason: " + cause.getReason() + "\n";
        String action = "Update your application's configuration. " + cause.getKey() + " accepts: "
                + cause.getAllowed();
        return new FailureAnalysis(description, action, cause);
    }

    private static String describe(Object value) {
        if (value == null) {
            return "(not set)";
        }
        return value instanceof CharSequence ? "\"" + value + "\"" : String.valueOf(value);
    }
}
