package dev.opcua.stack.core.security.pki;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.crypto.BouncyCastle;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.ProviderException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.UnrecoverableKeyException;
import java.security.cert.CRL;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CRLHolder;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMDecryptorProviderBuilder;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * Reads and writes application certificates and trust material (Part 6, 6.2.2: DER certificates; PEM as
 * OpenSSL writes it; PKCS#12 and JKS key stores).
 *
 * <p>Certificates: PEM ("CERTIFICATE" blocks) or DER, each possibly followed by the issuer certificates.
 * Private keys: PEM PKCS#8 ("PRIVATE KEY"), PKCS#1 ("RSA PRIVATE KEY", also OpenSSL-encrypted), encrypted
 * PKCS#8 ("ENCRYPTED PRIVATE KEY"), or DER PKCS#8. Every failure is an {@link IllegalArgumentException}
 * that names the file and what is wrong with it.
 */
public final class CertificateLoader {

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> WORLD_READABLE = PosixFilePermissions.fromString("rw-r--r--");
    /** The signature that proves an EC private key belongs to a certificate, whatever the curve's size. */
    private static final String EC_KEY_PROBE_ALGORITHM = "SHA256withECDSA";
    private static final String PEM_BEGIN = "-----BEGIN ";
    private static final String PKCS8_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String PKCS8_END = "-----END PRIVATE KEY-----";
    /** The key factories of the application certificates' types (Part 12, 7.8.4: RSA and ECC). */
    private static final List<String> JDK_KEY_ALGORITHMS = List.of("RSA", "EC");

    private CertificateLoader() {
    }

    /** {@link #loadPem(Path, Path, char[])} for an unencrypted key. */
    public static ApplicationCertificate loadPem(Path certificateFile, Path privateKeyFile) {
        return loadPem(certificateFile, privateKeyFile, null);
    }

    /**
     * Loads a certificate (followed by its issuers, nearest first, if any) and its private key.
     *
     * @param password the password of an encrypted private key; null when it is not encrypted
     * @throws IllegalArgumentException naming the file: unreadable, no certificate, encrypted key without
     *         or with the wrong password, key that does not belong to the certificate
     */
    public static ApplicationCertificate loadPem(Path certificateFile, Path privateKeyFile, char[] password) {
        List<X509Certificate> chain = readCertificates(certificateFile);
        PrivateKey key = readPrivateKey(privateKeyFile, password);
        return applicationCertificate(chain, key, certificateFile + " and " + privateKeyFile);
    }

    /**
     * Loads the key entry of a PKCS#12 or JKS key store (the type is detected from the content).
     *
     * @param alias the key entry; may be null when the store holds exactly one key entry
     * @param keyPassword the entry's password; null to use the store password
     * @throws IllegalArgumentException naming the file: wrong store or key password, no key entry, alias not
     *         found (listing the aliases), several key entries without an alias, key and certificate mismatch
     */
    public static ApplicationCertificate loadKeyStore(Path keyStoreFile, char[] storePassword, String alias,
            char[] keyPassword) {
        if (!Files.isRegularFile(keyStoreFile)) {
            throw new IllegalArgumentException("key store " + keyStoreFile + " does not exist or is not a file");
        }
        return loadKeyStore(read(keyStoreFile), keyStoreFile.toString(), storePassword, alias, keyPassword);
    }

    /**
     * {@link #loadKeyStore(Path, char[], String, char[])} from bytes already read, e.g. from a class path
     * resource: JKS by its magic number, anything that starts as a DER sequence as PKCS#12.
     *
     * @param source what the bytes are (a file name, a resource), named in the error
     */
    public static ApplicationCertificate loadKeyStore(byte[] bytes, String source, char[] storePassword,
            String alias, char[] keyPassword) {
        KeyStore store = openKeyStore(bytes, source, storePassword);
        try {
            List<String> aliases = Collections.list(store.aliases());
            String entry = alias;
            if (entry == null) {
                List<String> keyEntries = new ArrayList<>();
                for (String a : aliases) {
                    if (store.isKeyEntry(a)) {
                        keyEntries.add(a);
                    }
                }
                if (keyEntries.isEmpty()) {
                    throw new IllegalArgumentException("key store " + source + " holds no private key entry; "
                            + "its entries: " + aliases);
                }
                if (keyEntries.size() > 1) {
                    throw new IllegalArgumentException("key store " + source + " holds several private key "
                            + "entries " + keyEntries + "; name the alias to use");
                }
                entry = keyEntries.get(0);
            } else if (!store.containsAlias(entry)) {
                throw new IllegalArgumentException("alias '" + entry + "' not found in key store " + source
                        + "; its aliases: " + aliases);
            } else if (!store.isKeyEntry(entry)) {
                throw new IllegalArgumentException("alias '" + entry + "' in key store " + source
                        + " is a certificate entry, not a private key entry");
            }
            Key key;
            try {
                key = store.getKey(entry, keyPassword != null ? keyPassword : storePassword);
            } catch (UnrecoverableKeyException e) {
                throw new IllegalArgumentException("wrong key password for alias '" + entry + "' in key store "
                        + source, e);
            }
            if (!(key instanceof PrivateKey privateKey)) {
                throw new IllegalArgumentException("alias '" + entry + "' in key store " + source
                        + " holds a secret key, not a private key");
            }
            Certificate[] certificates = store.getCertificateChain(entry);
            if (certificates == null || certificates.length == 0) {
                throw new IllegalArgumentException("alias '" + entry + "' in key store " + source
                        + " has no certificate");
            }
            List<X509Certificate> chain = new ArrayList<>();
            for (Certificate c : certificates) {
                if (!(c instanceof X509Certificate x509)) {
                    throw new IllegalArgumentException("alias '" + entry + "' in key store " + source
                            + " holds a " + c.getType() + " certificate, not X.509");
                }
                chain.add(x509);
            }
            return applicationCertificate(chain, privateKey, "key store " + source + " alias '" + entry + "'");
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read key store " + source + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads one or more certificates from a PEM or DER file (several DER certificates may follow each other).
     *
     * @throws IllegalArgumentException naming the file when it holds no certificate or cannot be parsed
     */
    public static List<X509Certificate> readCertificates(Path file) {
        return readCertificates(read(file), file.toString());
    }

    /**
     * {@link #readCertificates(Path)} from bytes already read, e.g. from a class path resource.
     *
     * @param source what the bytes are (a file name, a resource), named in the error
     */
    public static List<X509Certificate> readCertificates(byte[] bytes, String source) {
        List<X509Certificate> certificates = new ArrayList<>();
        try {
            if (isPem(bytes)) {
                JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
                for (Object o : pemObjects(bytes, source)) {
                    if (o instanceof X509CertificateHolder holder) {
                        certificates.add(converter.getCertificate(holder));
                    }
                }
            } else {
                for (Certificate c : CertificateFactory.getInstance("X.509")
                        .generateCertificates(new ByteArrayInputStream(bytes))) {
                    certificates.add((X509Certificate) c);
                }
            }
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalArgumentException("cannot parse the certificate in " + source + ": " + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException("no certificate in " + source);
        }
        return List.copyOf(certificates);
    }

    /**
     * Reads one or more CRLs from a PEM ("X509 CRL") or DER file.
     *
     * @throws IllegalArgumentException naming the file when it holds no CRL or cannot be parsed
     */
    public static List<X509CRL> readCrls(Path file) {
        return readCrls(read(file), file.toString());
    }

    /**
     * {@link #readCrls(Path)} from bytes already read.
     *
     * @param source what the bytes are (a file name, a resource), named in the error
     */
    public static List<X509CRL> readCrls(byte[] bytes, String source) {
        List<X509CRL> crls = new ArrayList<>();
        try {
            if (isPem(bytes)) {
                JcaX509CRLConverter converter = new JcaX509CRLConverter();
                for (Object o : pemObjects(bytes, source)) {
                    if (o instanceof X509CRLHolder holder) {
                        crls.add(converter.getCRL(holder));
                    }
                }
            } else {
                for (CRL c : CertificateFactory.getInstance("X.509").generateCRLs(new ByteArrayInputStream(bytes))) {
                    crls.add((X509CRL) c);
                }
            }
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalArgumentException("cannot parse the CRL in " + source + ": " + e.getMessage(), e);
        }
        if (crls.isEmpty()) {
            throw new IllegalArgumentException("no CRL in " + source);
        }
        return List.copyOf(crls);
    }

    /**
     * Reads a private key: PEM PKCS#8, encrypted PKCS#8, PKCS#1 (plain or OpenSSL-encrypted) or DER PKCS#8.
     *
     * @param password for an encrypted key; ignored (may be null) for a plain one
     */
    public static PrivateKey readPrivateKey(Path file, char[] password) {
        return readPrivateKey(read(file), file.toString(), password);
    }

    /**
     * {@link #readPrivateKey(Path, char[])} from bytes already read.
     *
     * @param source what the bytes are (a file name, a resource), named in the error
     */
    public static PrivateKey readPrivateKey(byte[] bytes, String source, char[] password) {
        PrivateKey plain = plainPkcs8Key(bytes);
        if (plain != null) {
            return plain;
        }
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        if (!isPem(bytes)) {
            return convert(source, "neither PEM nor DER PKCS#8",
                    () -> converter.getPrivateKey(PrivateKeyInfo.getInstance(bytes)));
        }
        for (Object o : pemObjects(bytes, source)) {
            if (o instanceof PrivateKeyInfo info) {
                return convert(source, "unusable PKCS#8 key", () -> converter.getPrivateKey(info));
            }
            if (o instanceof PEMKeyPair pair) {
                return convert(source, "unusable PKCS#1 key", () -> converter.getKeyPair(pair).getPrivate());
            }
            if (o instanceof PKCS8EncryptedPrivateKeyInfo encrypted) {
                requirePassword(source, password);
                PrivateKeyInfo info = decrypt(source, () -> encrypted.decryptPrivateKeyInfo(
                        new JceOpenSSLPKCS8DecryptorProviderBuilder().setProvider(BouncyCastle.provider()).build(password)));
                return convert(source, "unusable PKCS#8 key", () -> converter.getPrivateKey(info));
            }
            if (o instanceof PEMEncryptedKeyPair encrypted) {
                requirePassword(source, password);
                PEMKeyPair pair = decrypt(source, () -> encrypted.decryptKeyPair(
                        new JcePEMDecryptorProviderBuilder().setProvider(BouncyCastle.provider()).build(password)));
                return convert(source, "unusable PKCS#1 key", () -> converter.getKeyPair(pair).getPrivate());
            }
        }
        throw new IllegalArgumentException("no private key in " + source + " (expected a PEM block PRIVATE KEY, "
                + "RSA PRIVATE KEY or ENCRYPTED PRIVATE KEY)");
    }

    /**
     * The key of a PEM text whose only block is an unencrypted PKCS#8 "PRIVATE KEY" (RFC 5958, RFC 7468 section
     * 10: what {@link #writePrivateKeyPem} writes), decoded by the JDK's RSA or EC key factory: the key
     * BouncyCastle's converter would return, as it asks the same factories, without loading BouncyCastle's PEM
     * and ASN.1 classes on every start. Null for anything else (other blocks, another algorithm, a malformed
     * key), which BouncyCastle's parser reads and, if it must, explains.
     */
    static PrivateKey plainPkcs8Key(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int begin = text.indexOf(PKCS8_BEGIN);
        int end = text.indexOf(PKCS8_END);
        if (begin < 0 || end < begin || text.indexOf(PEM_BEGIN) != begin
                || text.indexOf(PEM_BEGIN, begin + PKCS8_BEGIN.length()) >= 0) {
            return null;
        }
        PKCS8EncodedKeySpec spec;
        try {
            spec = new PKCS8EncodedKeySpec(
                    Base64.getMimeDecoder().decode(text.substring(begin + PKCS8_BEGIN.length(), end)));
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
        for (String algorithm : JDK_KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException | RuntimeException notThisAlgorithm) {
                // the next factory, or BouncyCastle's parser
            }
        }
        return null;
    }

    /**
     * PEM encoding with BouncyCastle's writer, in a class of its own: the JVM loads it, and with it
     * BouncyCastle's PEM classes from their signed jar, only when a file is written (the first start), not
     * each time the loader is linked to read the application's keys.
     */
    private static final class PemText {

        private PemText() {
        }

        static byte[] of(List<Object> objects, String what) {
            StringWriter text = new StringWriter();
            try (JcaPEMWriter w = new JcaPEMWriter(text)) {
                for (Object o : objects) {
                    w.writeObject(o);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot encode " + what, e);
            }
            return text.toString().getBytes(StandardCharsets.US_ASCII);
        }

        static byte[] ofPrivateKey(PrivateKey key, String what) {
            try {
                return of(List.of(new JcaPKCS8Generator(key, null).generate()), what);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot encode " + what, e);
            }
        }
    }

    /** A parsing step that may fail with any exception. */
    private interface Step<T> {
        T run() throws Exception;
    }

    private static <T> T convert(String source, String what, Step<T> step) {
        try {
            return step.run();
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot read the private key in " + source + ": " + what + " ("
                    + e.getMessage() + ")", e);
        }
    }

    private static <T> T decrypt(String source, Step<T> step) {
        try {
            return step.run();
        } catch (Exception e) {
            throw new IllegalArgumentException("wrong password for the encrypted private key in " + source
                    + " (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Writes the certificate (followed by its issuers) as DER and the private key as unencrypted PEM PKCS#8.
     * The key file is readable by its owner only where the file system supports POSIX permissions. Each
     * file is written to a temporary file first and then moved into place, so a crash leaves no half file.
     */
    public static void save(ApplicationCertificate certificate, Path certificateFile, Path privateKeyFile) {
        writePrivateKeyPem(certificate.privateKey(), privateKeyFile);
        writeAtomically(certificateFile, certificate.chainDer().unsafeBytes(), false);
    }

    /** Writes certificates as PEM "CERTIFICATE" blocks (for administrators and other tools). */
    public static void writeCertificatesPem(List<X509Certificate> certificates, Path file) {
        writeAtomically(file, PemText.of(new ArrayList<>(certificates), "certificates for " + file), false);
    }

    /** Writes a private key as unencrypted PEM PKCS#8 ("PRIVATE KEY"), readable by its owner only. */
    public static void writePrivateKeyPem(PrivateKey key, Path file) {
        writeAtomically(file, PemText.ofPrivateKey(key, "the private key for " + file), true);
    }

    /** Whether {@code key} is the private key of the certificate's public key. */
    public static boolean keyMatches(X509Certificate certificate, PrivateKey key) {
        if (certificate.getPublicKey() instanceof RSAPublicKey pub && key instanceof RSAPrivateKey priv) {
            if (!pub.getModulus().equals(priv.getModulus())) {
                return false;
            }
            return !(priv instanceof RSAPrivateCrtKey crt) || crt.getPublicExponent().equals(pub.getPublicExponent());
        }
        // other key types: prove it with a signature
        try {
            if ("EC".equals(key.getAlgorithm())) {
                return ecKeyMatches(certificate.getPublicKey(), key);
            }
            return signatureVerifies(Signature.getInstance("SHA256with" + key.getAlgorithm()), key,
                    certificate.getPublicKey());
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /**
     * An EC key proved with an ECDSA signature: by the JDK's provider on the curves it signs with (NIST P-256 and
     * P-384, those of the ECC_nistP256/384 policies), whose classes load in a tenth of the time BouncyCastle's take
     * on a cold start (every server start checks its keys); by BouncyCastle on the others (the JDK dropped the
     * Brainpool curves).
     */
    private static boolean ecKeyMatches(PublicKey publicKey, PrivateKey key) throws GeneralSecurityException {
        byte[] encoded = key.getEncoded();
        if (encoded != null) {
            try {
                PrivateKey jdkKey = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(encoded));
                return signatureVerifies(Signature.getInstance(EC_KEY_PROBE_ALGORITHM), jdkKey, publicKey);
            } catch (GeneralSecurityException | ProviderException e) {
                // a curve the JDK parses but does not sign with: BouncyCastle's below
            }
        }
        return signatureVerifies(Signature.getInstance(EC_KEY_PROBE_ALGORITHM, BouncyCastle.provider()), key,
                publicKey);
    }

    private static boolean signatureVerifies(Signature signature, PrivateKey key, PublicKey publicKey)
            throws GeneralSecurityException {
        byte[] probe = "key match probe".getBytes(StandardCharsets.US_ASCII);
        signature.initSign(key);
        signature.update(probe);
        byte[] signed = signature.sign();
        signature.initVerify(publicKey);
        signature.update(probe);
        return signature.verify(signed);
    }

    static ApplicationCertificate applicationCertificate(List<X509Certificate> chain, PrivateKey key, String source) {
        X509Certificate certificate = chain.get(0);
        if (!keyMatches(certificate, key)) {
            throw new IllegalArgumentException("the private key does not match the certificate "
                    + X509Names.describe(certificate) + " (" + source + ")");
        }
        try {
            return new ApplicationCertificate(certificate, chain.subList(1, chain.size()), key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (" + source + ")", e);
        }
    }

    static void writeAtomically(Path file, byte[] content, boolean ownerOnly) {
        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        try {
            Files.createDirectories(dir);
            boolean posix = Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class);
            FileAttribute<?>[] attributes = posix
                    ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                    : new FileAttribute<?>[0];
            Path tmp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp", attributes);
            try {
                Files.write(tmp, content);
                if (posix && !ownerOnly) {
                    Files.setPosixFilePermissions(tmp, WORLD_READABLE);
                }
                try {
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The JKS magic number (its first four bytes); PKCS#12 is a DER SEQUENCE (tag 0x30). JCEKS is not read: its
     * JDK parser allocates whatever length the file claims (a fuzzed store made it throw
     * NegativeArraySizeException), and PKCS#12 replaced it.
     */
    private static final int JKS_MAGIC = 0xFEEDFEED;

    private static KeyStore openKeyStore(byte[] bytes, String source, char[] password) {
        String type = keyStoreType(bytes);
        if (type == null) {
            throw new IllegalArgumentException(source + " is not a PKCS#12 or JKS key store: it starts with neither "
                    + "a DER sequence nor the JKS magic number");
        }
        try {
            KeyStore store = KeyStore.getInstance(type);
            store.load(new ByteArrayInputStream(bytes), password);
            return store;
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException
                    || (e.getMessage() != null && e.getMessage().contains("password"))) {
                throw new IllegalArgumentException("wrong password for key store " + source, e);
            }
            throw new IllegalArgumentException("cannot read key store " + source + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read key store " + source + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            // the JDK's parsers may fail on malformed content with any runtime exception
            throw new IllegalArgumentException("cannot read key store " + source + ": malformed " + type + " content ("
                    + e + ")", e);
        }
    }

    private static String keyStoreType(byte[] bytes) {
        if (bytes.length >= 4) {
            int magic = (bytes[0] & 0xFF) << 24 | (bytes[1] & 0xFF) << 16 | (bytes[2] & 0xFF) << 8 | (bytes[3] & 0xFF);
            if (magic == JKS_MAGIC) {
                return "JKS";
            }
        }
        return bytes.length > 0 && bytes[0] == 0x30 ? "PKCS12" : null;
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + " does not exist", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e, e);
        }
    }

    static boolean isPem(byte[] bytes) {
        // text before the first block is allowed (openssl writes "Bag Attributes" there)
        return new String(bytes, StandardCharsets.ISO_8859_1).contains("-----BEGIN ");
    }

    private static List<Object> pemObjects(byte[] bytes, String source) {
        List<Object> objects = new ArrayList<>();
        try (PEMParser parser = new PEMParser(new InputStreamReader(new ByteArrayInputStream(bytes),
                StandardCharsets.US_ASCII))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                objects.add(o);
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("malformed PEM in " + source + ": " + e.getMessage(), e);
        }
        return objects;
    }

    private static void requirePassword(String source, char[] password) {
        if (password == null || password.length == 0) {
            throw new IllegalArgumentException("the private key in " + source + " is encrypted; a password is required");
        }
    }
}
