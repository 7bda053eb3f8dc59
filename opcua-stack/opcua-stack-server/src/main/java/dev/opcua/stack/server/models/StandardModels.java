package dev.opcua.stack.server.models;

import dev.opcua.stack.server.nodeset.NodeSetData;
import dev.opcua.stack.server.nodeset.NodeSetSource;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The companion models that the server carries as generated Java ({@link DiModel}, {@link MachineryModel}),
 * as nodeset sources for {@code OpcUaServer.Builder.nodeSet} or, by name, for the {@code model:NAME}
 * locations of {@code opcua.server.nodesets}. They import exactly as their NodeSet2 files do (Part 6,
 * Annex F), RequiredModel checks included: Machinery requires DI, so DI is listed first.
 */
public final class StandardModels {

    /** The location prefix of a built-in model, e.g. {@code model:di}. */
    public static final String PREFIX = "model:";

    private StandardModels() {
    }

    /** OPC UA for Devices (DI), OPC 10000-100, from {@value DiModel#FILE}. */
    public static NodeSetSource di() {
        return source("di", DiModel.FILE, DiModel::build);
    }

    /** OPC UA for Machinery, OPC 40001-1, from {@value MachineryModel#FILE}; requires {@link #di()}. */
    public static NodeSetSource machinery() {
        return source("machinery", MachineryModel.FILE, MachineryModel::build);
    }

    /** The names {@link #byName} knows. */
    public static List<String> names() {
        return List.of("di", "machinery");
    }

    /**
     * A model by name ({@code di}, {@code machinery}; case-insensitive, a {@code model:} prefix allowed).
     *
     * @throws IllegalArgumentException naming the known models when there is no such model
     */
    public static NodeSetSource byName(String name) {
        return switch (key(name)) {
            case "di" -> di();
            case "machinery" -> machinery();
            default -> throw new IllegalArgumentException("no built-in model '" + name + "'; the built-in models are "
                    + names().stream().map(n -> PREFIX + n).toList());
        };
    }

    /** Whether {@link #byName} knows the name (case-insensitive, a {@code model:} prefix allowed). */
    public static boolean isKnown(String name) {
        return names().contains(key(name));
    }

    /** The name as {@link #names} lists it: trimmed, lower case, without the {@code model:} prefix. */
    private static String key(String name) {
        String key = name.trim().toLowerCase(Locale.ROOT);
        return key.startsWith(PREFIX) ? key.substring(PREFIX.length()) : key;
    }

    private static NodeSetSource source(String name, String file, Supplier<NodeSetData> data) {
        return NodeSetSource.ofData(PREFIX + name + " (generated from " + file + ")", data);
    }
}
