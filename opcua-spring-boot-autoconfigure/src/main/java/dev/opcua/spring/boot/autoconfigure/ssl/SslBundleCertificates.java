package dev.opcua.spring.boot.autoconfigure.ssl;

import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.stack.core.security.ApplicationCertificate;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * An OPC UA application instance certificate and key from a Spring SSL bundle
 * ({@code spring.ssl.bundle.pem.<name>} or {@code spring.ssl.bundle.jks.<name>}): the key entry of the
 * bundle's key store (its {@code key.alias}, or the only key entry), the certificate chain stored with
 * it. With {@code reload-on-update: true} on the bundle, {@link #onReload} hands each reloaded
 * certificate to the server or client that uses it.
 */
public final class SslBundleCertificates {

    private static final Log log = LogFactory.getLog(SslBundleCertificates.class);

    private SslBundleCertificates() {
    }

    /**
     * The certificate of bundle {@code name}.
     *
     * @param group the certificate's property group, relative to the checks' prefix ({@code security.certificate});
     *        the bundle is its {@code bundle} key
     * @param filesSet whether the group's PEM files or key store are set too (refused: one certificate, one source)
     * @throws dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyException when the files are set
     *         too, there is no such bundle, or it holds no usable key entry
     */
    public static ApplicationCertificate load(PropertyChecks checks, String group, String name, boolean filesSet,
            SslBundles bundles) {
        String key = group + ".bundle";
        if (filesSet) {
            throw checks.invalid(key, name, "pem-certificate or keystore is set too, and one certificate is used",
                    "either bundle, or keystore (with keystore-password and alias), or pem-certificate with"
                            + " pem-private-key");
        }
        if (bundles == null) {
            throw checks.invalid(key, name, "the application has no SSL bundles (SslBundles bean)",
                    "the name of a bundle under spring.ssl.bundle.pem or spring.ssl.bundle.jks");
        }
        SslBundle bundle;
        try {
            bundle = bundles.getBundle(name);
        } catch (NoSuchSslBundleException e) {
            throw checks.invalid(key, name, "there is no SSL bundle of that name",
                    "the name of a bundle under spring.ssl.bundle.pem or spring.ssl.bundle.jks", e);
        }
        try {
            return certificate(bundle);
        } catch (IllegalArgumentException e) {
            throw checks.invalid(key, name, e.getMessage(), "a bundle whose key store holds one private key with"
                    + " its RSA certificate (or key.alias naming it)", e);
        }
    }

    /**
     * Calls {@code replace} with the certificate of each reload of bundle {@code name}; a reloaded bundle
     * that holds no usable certificate, or that {@code replace} refuses, is logged and the certificate in
     * use is kept.
     */
    public static void onReload(SslBundles bundles, String name, String user, Consumer<ApplicationCertificate> replace) {
        bundles.addBundleUpdateHandler(name, bundle -> {
            try {
                ApplicationCertificate next = certificate(bundle);
                replace.accept(next);
                log.info("SSL bundle '" + name + "' reloaded: " + user + " uses " + next);
            } catch (RuntimeException e) {
                log.error("SSL bundle '" + name + "' reloaded, but " + user + " keeps its certificate: "
                        + e.getMessage(), e);
            }
        });
    }

    /** The key entry of the bundle's key store and its chain. */
    static ApplicationCertificate certificate(SslBundle bundle) {
        KeyStore store;
        try {
            store = bundle.getStores().getKeyStore(); // a PEM bundle parses its files here
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the bundle's key store cannot be made: " + e.getMessage(), e);
        }
        if (store == null) {
            throw new IllegalArgumentException("the bundle has no key store (only a trust store)");
        }
        try {
            String alias = alias(store, bundle.getKey().getAlias());
            Key key = store.getKey(alias, password(bundle));
            if (!(key instanceof PrivateKey privateKey)) {
                throw new IllegalArgumentException("the entry '" + alias + "' holds no private key");
            }
            Certificate[] chain = store.getCertificateChain(alias);
            if (chain == null || chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
                throw new IllegalArgumentException("the entry '" + alias + "' holds no X.509 certificate");
            }
            List<X509Certificate> issuers = new ArrayList<>();
            for (int i = 1; i < chain.length; i++) {
                issuers.add((X509Certificate) chain[i]);
            }
            return new ApplicationCertificate(leaf, issuers, privateKey);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("the key store cannot be read: " + e.getMessage(), e);
        }
    }

    private static String alias(KeyStore store, String configured) throws GeneralSecurityException {
        if (configured != null) {
            if (!store.isKeyEntry(configured)) {
                throw new IllegalArgumentException("key.alias '" + configured + "' is not a key entry; the key entries"
                        + " are " + keyAliases(store));
            }
            return configured;
        }
        List<String> keys = keyAliases(store);
        if (keys.size() != 1) {
            throw new IllegalArgumentException(keys.isEmpty() ? "the key store holds no private key"
                    : "the key store holds several keys " + keys + ": name one with key.alias");
        }
        return keys.get(0);
    }

    private static List<String> keyAliases(KeyStore store) throws GeneralSecurityException {
        List<String> keys = new ArrayList<>();
        for (String alias : Collections.list(store.aliases())) {
            if (store.isKeyEntry(alias)) {
                keys.add(alias);
            }
        }
        return keys;
    }

    /** The key's own password, else the store's (a PEM bundle's in-memory store has neither). */
    private static char[] password(SslBundle bundle) {
        String keyPassword = bundle.getKey().getPassword();
        if (keyPassword != null) {
            return keyPassword.toCharArray();
        }
        String storePassword = bundle.getStores().getKeyStorePassword();
        return storePassword == null ? new char[0] : storePassword.toCharArray();
    }
}
