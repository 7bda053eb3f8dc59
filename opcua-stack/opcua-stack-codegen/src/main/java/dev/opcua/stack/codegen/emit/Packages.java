package dev.opcua.stack.codegen.emit;

import java.util.List;

/** Packages the generator writes, and the hand-written runtime classes the generated code refers to. */
public final class Packages {

    public static final String BASE = "dev.opcua.stack.core";
    public static final String STRUCTURED = BASE + ".types.structured";
    public static final String ENUMERATED = BASE + ".types.enumerated";
    public static final String IDS = BASE + ".ids";

    /** The packages the generator owns: their previously generated files are replaced on every run. */
    public static final List<String> OWNED = List.of(STRUCTURED, ENUMERATED, IDS);

    public static final String NODE_ID = BASE + ".types.builtin.NodeId";
    public static final String NODE_IDS = IDS + ".NodeIds";
    public static final String UA_STRUCTURE = BASE + ".types.UaStructure";
    public static final String UA_REQUEST_MESSAGE = BASE + ".types.UaRequestMessage";
    public static final String UA_RESPONSE_MESSAGE = BASE + ".types.UaResponseMessage";
    public static final String UA_ENUMERATION = BASE + ".types.UaEnumeration";
    public static final String UA_CODEC = BASE + ".encoding.UaCodec";
    public static final String UA_WRITER = BASE + ".encoding.UaWriter";
    public static final String UA_READER = BASE + ".encoding.UaReader";

    private Packages() {
    }
}
