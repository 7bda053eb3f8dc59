package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.encoding.UaCodec;
import java.util.Collection;

/**
 * A node manager that defines structured DataTypes in code: the server adds their codecs to those
 * of its messages at start (Part 6, 5.2.6), so that their values are encoded when read and decoded
 * when written, without the application registering each codec with the builder.
 */
public interface StructureCodecSource {

    /**
     * The codecs of the manager's structures. Called once at start, after the manager was registered
     * (its namespaces have their indexes) and before {@link NodeManager#startup}.
     */
    Collection<UaCodec<?>> codecs(NamespaceTable namespaces);
}
