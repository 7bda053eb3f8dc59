package dev.opcua.stack.server.nodeset;

/**
 * A nodeset requires a model (Part 6, F.2 RequiredModel) that is not loaded, or loaded in an older
 * version or publication: start-up stops with a message naming both models.
 */
public final class RequiredModelException extends NodeSetException {

    private static final long serialVersionUID = 1L;

    private final String model;
    private final String requiredModel;

    public RequiredModelException(String message, String model, String requiredModel) {
        super(message);
        this.model = model;
        this.requiredModel = requiredModel;
    }

    /** URI of the model that has the requirement. */
    public String model() {
        return model;
    }

    /** URI of the model it requires. */
    public String requiredModel() {
        return requiredModel;
    }
}
