package dev.opcua.stack.server.nodeset;

/**
 * A node manager whose objects are instances of ObjectTypes (imported or standard, Part 3, 6.4): the
 * server calls it once at start, after every node manager started and the NodeSet2 models are in
 * place, and before clients are served, so that a failure stops the start.
 */
public interface InstantiatesTypes {

    /**
     * Creates the manager's typed objects.
     *
     * @param instances creates objects of types with their mandatory children, into the manager's store
     */
    void instantiateTypes(TypeInstantiator instances);
}
