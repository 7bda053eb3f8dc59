package dev.opcua.stack.pubsub.transport.mqtt;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.TrustManagerFactorySpi;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Trust managers that check the broker's certificate chain as given but not whether it names the host, for
 * {@link MqttSettings#hostnameVerification()} false. Needed because Netty 4.2 turns endpoint identification (HTTPS)
 * on by default for every client TLS context, so the HiveMQ client's own switch (a HostnameVerifier that accepts
 * everything, which merely stops it from requesting HTTPS identification) no longer has an effect; the JDK checks
 * the name inside {@code X509ExtendedTrustManager.checkServerTrusted(chain, authType, engine)}, which is where this
 * wrapper leaves it out.
 */
final class LenientHostnameTrust {

    private LenientHostnameTrust() {
    }

    /** {@code trust} (or the JDK's default trust store if null) without the host name check. */
    static TrustManagerFactory wrap(TrustManagerFactory trust) {
        TrustManagerFactory delegate = trust;
        try {
            if (delegate == null) {
                delegate = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                delegate.init((KeyStore) null);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot load the JDK's default trust store", e);
        }
        TrustManager[] managers = Arrays.stream(delegate.getTrustManagers())
                .map(m -> m instanceof X509TrustManager x ? new NoHostnameCheck(x) : m)
                .toArray(TrustManager[]::new);
        return new Factory(new Spi(managers), delegate);
    }

    private static final class Factory extends TrustManagerFactory {
        Factory(TrustManagerFactorySpi spi, TrustManagerFactory delegate) {
            super(spi, delegate.getProvider(), delegate.getAlgorithm());
        }
    }

    private static final class Spi extends TrustManagerFactorySpi {
        private final TrustManager[] managers;

        Spi(TrustManager[] managers) {
            this.managers = managers;
        }

        @Override
        protected void engineInit(KeyStore ks) {
            // initialised already
        }

        @Override
        protected void engineInit(ManagerFactoryParameters spec) {
            // initialised already
        }

        @Override
        protected TrustManager[] engineGetTrustManagers() {
            return managers.clone();
        }
    }

    /** Delegates to the chain checks that take no socket or engine, so no endpoint identification happens. */
    private static final class NoHostnameCheck extends X509ExtendedTrustManager {
        private final X509TrustManager delegate;

        NoHostnameCheck(X509TrustManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            delegate.checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            delegate.checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return delegate.getAcceptedIssuers();
        }
    }
}
