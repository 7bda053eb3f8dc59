package dev.opcua.spring.boot.server.annotation;

/**
 * An annotated bean that cannot become nodes: the message names the bean, the member, the value
 * at fault and what is allowed.
 */
public class OpcUaAnnotationException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public OpcUaAnnotationException(String message) {
        super(message);
    }
}
