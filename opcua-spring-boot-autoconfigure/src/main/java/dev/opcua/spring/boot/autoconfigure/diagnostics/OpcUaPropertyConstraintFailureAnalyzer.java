package dev.opcua.spring.boot.autoconfigure.diagnostics;

import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationErrors;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * Reports the Bean Validation constraints of the {@code opcua.*} properties that the configuration
 * breaks: each property under the key as {@code application.yml} writes it, with its value and the
 * constraint. The constraints are checked at binding by
 * {@link dev.opcua.spring.boot.autoconfigure.validation.PropertyConstraints} (the properties classes are
 * {@link dev.opcua.spring.boot.autoconfigure.validation.CheckedProperties}, no Bean Validation provider is
 * needed), which reports each error under its Java path as Hibernate Validator did
 * ({@code requests.maxThreads}, {@code hostnames[0]}, {@code connections[plant].endpointUrl}). Spring Boot's
 * own report names a property of a nested group by that path ({@code opcua.server.requests.maxThreads});
 * this one runs first, names it {@code opcua.server.requests.max-threads} (a map key as a segment of the key:
 * {@code opcua.client.connections.plant.endpoint-url}) and leaves every other binding failure to it.
 */
public class OpcUaPropertyConstraintFailureAnalyzer extends AbstractFailureAnalyzer<BindValidationException>
        implements Ordered {

    /** A map key in a property path ({@code connections[plant]}), as opposed to a list index. */
    private static final Pattern MAP_KEY = Pattern.compile("\\[([^\\]0-9][^\\]]*)]");

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindValidationException cause) {
        ValidationErrors errors = cause.getValidationErrors();
        String prefix = errors.getName().toString();
        if (!prefix.equals("opcua") && !prefix.startsWith("opcua.")) {
            return null;
        }
        StringBuilder description = new StringBuilder("The OPC UA properties under " + prefix
                + " break these constraints:\n");
        for (ObjectError error : errors) {
            if (error instanceof FieldError field) {
                description.append("\n    Property: ").append(key(field))
                        .append("\n    Value: ").append(describe(field.getRejectedValue()));
            }
            description.append("\n    Reason: ").append(error.getDefaultMessage()).append('\n');
        }
        return new FailureAnalysis(description.toString(), "Update your application's configuration so that each"
                + " property satisfies its constraint (docs/CONFIGURATION.md lists every key and its range).", cause);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /** {@code opcua.server} and {@code requests.maxThreads} as {@code opcua.server.requests.max-threads}. */
    static String key(FieldError error) {
        String path = MAP_KEY.matcher(error.getField()).replaceAll(".$1");
        return error.getObjectName() + "." + DataObjectPropertyName.toDashedForm(path);
    }

    private static String describe(Object value) {
        if (value == null) {
            return "(not set)";
        }
        return value instanceof CharSequence ? "\"" + value + "\"" : String.valueOf(value);
    }
}
