package dev.opcua.stack.core.security.pki;

import java.security.Provider;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * One BouncyCastle provider instance for the PBE ciphers of encrypted PEM keys, passed to BouncyCastle's
 * builders explicitly: registering it globally would change the JCA of the whole application.
 */
final class Bc {

    private Bc() {
    }

    private static final class Holder {
        static final Provider PROVIDER = new BouncyCastleProvider();
    }

    static Provider provider() {
        return Holder.PROVIDER;
    }
}
