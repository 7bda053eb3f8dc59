package dev.opcua.stack.core.security.crypto;

import java.security.Provider;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * The one BouncyCastle provider instance of the stack, passed to the JCA and to BouncyCastle's builders
 * explicitly where the JDK falls short: the PBE ciphers of encrypted PEM keys, and the Brainpool curves, which
 * the JDK no longer signs, verifies or agrees keys with. Never registered globally: that would change the JCA
 * of the whole application.
 */
public final class BouncyCastle {

    private BouncyCastle() {
    }

    private static final class Holder {
        static final Provider PROVIDER = new BouncyCastleProvider();
    }

    /** The provider, made on first use. */
    public static Provider provider() {
        return Holder.PROVIDER;
    }
}
