package dev.opcua.stack.codegen.model;

import java.util.Set;
import javax.lang.model.SourceVersion;

/** Turns specification names into Java names. */
public final class JavaNames {

    /**
     * Names that a generated field or accessor may not take: they are restricted identifiers, or they
     * would clash with a method of {@link Object} or of the {@code UaStructure} interface.
     */
    private static final Set<String> RESERVED_MEMBER_NAMES = Set.of(
            "var", "yield", "record", "sealed", "permits", "_",
            "getClass", "hashCode", "equals", "toString", "notify", "notifyAll", "wait", "clone", "finalize",
            "typeId", "binaryEncodingId");

    private JavaNames() {
    }

    /**
     * The Java field and accessor name of a specification field name: lowerCamelCase, where a leading
     * acronym is lower-cased as a whole ({@code RequestHeader -> requestHeader}, {@code EURange -> euRange},
     * {@code URI -> uri}), followed by an underscore when the result is a Java keyword or would clash with
     * an {@code Object} or {@code UaStructure} method ({@code Class -> class_}, {@code HashCode -> hashCode_}).
     */
    public static String memberName(String specName) {
        if (specName.isEmpty()) {
            throw new IllegalArgumentException("empty name");
        }
        int upper = 0;
        while (upper < specName.length() && Character.isUpperCase(specName.charAt(upper))) {
            upper++;
        }
        String name;
        if (upper == 0) {
            name = specName;
        } else if (upper == 1 || upper == specName.length()) {
            name = specName.substring(0, upper).toLowerCase(java.util.Locale.ROOT) + specName.substring(upper);
        } else if (Character.isLowerCase(specName.charAt(upper))) {
            // "EURange": the last capital starts the next word
            name = specName.substring(0, upper - 1).toLowerCase(java.util.Locale.ROOT) + specName.substring(upper - 1);
        } else {
            // "URI2" or "UA_Name": the whole capital run is the acronym
            name = specName.substring(0, upper).toLowerCase(java.util.Locale.ROOT) + specName.substring(upper);
        }
        return escape(name);
    }

    /** {@code name} followed by an underscore when it is a keyword or a reserved member name. */
    public static String escape(String name) {
        if (SourceVersion.isKeyword(name) || RESERVED_MEMBER_NAMES.contains(name)) {
            return name + "_";
        }
        return name;
    }

    /** Whether {@code name} can be used as a Java identifier (and is not a keyword). */
    public static boolean isIdentifier(String name) {
        return SourceVersion.isName(name) && !name.contains(".");
    }
}
