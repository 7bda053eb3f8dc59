package dev.opcua.stack.core.security;

/**
 * Security policies of secure channels (Part 7 profiles; Part 6, 6.7.2.3 carries the URI in the
 * asymmetric security header). Only None is implemented so far; the RSA policies plug into
 * {@link ChunkCrypto}.
 */
public enum SecurityPolicy {
    None("http://opcfoundation.org/UA/SecurityPolicy#None");

    private final String uri;

    SecurityPolicy(String uri) {
        this.uri = uri;
    }

    public String uri() {
        return uri;
    }

    /** The policy with this URI, or null when the stack does not implement it. */
    public static SecurityPolicy fromUri(String uri) {
        for (SecurityPolicy p : values()) {
            if (p.uri.equals(uri)) {
                return p;
            }
        }
        return null;
    }
}
