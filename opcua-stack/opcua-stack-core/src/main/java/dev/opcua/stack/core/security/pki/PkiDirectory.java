package dev.opcua.stack.core.security.pki;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.Certificates;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CRLException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PKI directory holding the trust lists of Part 4, 6.1.3, laid out as Part 12, Annex F recommends (except
 * that the issuer store is named {@code issuers/} and {@code rejected/} has no {@code certs/} subfolder, the
 * names this project's configuration documents):
 *
 * <pre>
 * own/certs        this application's certificate (DER)       own/private     its private key (PEM)
 * trusted/certs    trusted application and CA certificates    trusted/crl     CRLs of the trusted CAs
 * issuers/certs    CAs needed to build chains, not trusted    issuers/crl     CRLs of those CAs
 * rejected         certificates that failed the trust check, for an administrator to move to trusted/certs
 * </pre>
 *
 * <p>Trust material (certificates {@code .der .pem .crt .cer}, CRLs {@code .crl .pem}) is read into an
 * immutable {@link TrustList}. Changes are picked up without a restart: {@link #trustList()} compares the
 * directories' listings (names, sizes, modification times) when at least the reload interval has passed
 * since the last look, and rereads them when anything changed. No background thread is involved.
 * Push certificate management (Part 12, 7.8.2 and 7.10) writes through the methods that replace, add and remove
 * trust material and save the application certificate; each rereads the trust material before it returns.
 * Unreadable files are skipped and logged once. Thread-safe.
 */
public final class PkiDirectory {

    /** How often the trust directories are looked at, at most. */
    public static final Duration DEFAULT_RELOAD_INTERVAL = Duration.ofSeconds(1);
    /** How many certificates rejected/ keeps; the oldest are deleted beyond. */
    public static final int DEFAULT_MAX_REJECTED = 100;

    private static final Logger LOG = LoggerFactory.getLogger(PkiDirectory.class);
    private static final Set<String> CERTIFICATE_EXTENSIONS = Set.of("der", "pem", "crt", "cer");
    private static final Set<String> CRL_EXTENSIONS = Set.of("crl", "pem");

    private final Path root;
    private final Path ownCerts;
    private final Path ownPrivate;
    private final Path trustedCerts;
    private final Path trustedCrl;
    private final Path issuersCerts;
    private final Path issuersCrl;
    private final Path rejected;
    private final long reloadIntervalNanos;
    private final int maxRejected;

    private final Object reloadLock = new Object();
    private volatile TrustList trustList = TrustList.EMPTY;
    private volatile long nextCheckNanos;
    private List<FileStamp> stamps = List.of();
    private Set<FileStamp> unreadable = Set.of();
    private boolean loadedOnce;

    /** A directory with the default reload interval (1 s) and rejected/ bound (100). */
    public PkiDirectory(Path root) {
        this(root, DEFAULT_RELOAD_INTERVAL, DEFAULT_MAX_REJECTED);
    }

    /**
     * Opens the directory, creating the missing subdirectories, and reads the trust material.
     *
     * @param reloadInterval the least time between two looks at the trust directories; zero looks every time
     * @param maxRejected how many certificates rejected/ keeps at most
     * @throws UncheckedIOException when a subdirectory cannot be created
     * @throws InvalidSettingException {@code pkiDirectory.reloadInterval} or {@code pkiDirectory.maxRejected}
     *         out of range
     */
    public PkiDirectory(Path root, Duration reloadInterval, int maxRejected) {
        this.root = root.toAbsolutePath().normalize();
        if (reloadInterval.isNegative()) {
            throw new InvalidSettingException("pkiDirectory.reloadInterval", reloadInterval,
                    "must not be negative (0 looks every time)");
        }
        if (maxRejected < 1) {
            throw new InvalidSettingException("pkiDirectory.maxRejected", maxRejected, "must be positive");
        }
        this.reloadIntervalNanos = reloadInterval.toNanos();
        this.maxRejected = maxRejected;
        this.ownCerts = this.root.resolve("own/certs");
        this.ownPrivate = this.root.resolve("own/private");
        this.trustedCerts = this.root.resolve("trusted/certs");
        this.trustedCrl = this.root.resolve("trusted/crl");
        this.issuersCerts = this.root.resolve("issuers/certs");
        this.issuersCrl = this.root.resolve("issuers/crl");
        this.rejected = this.root.resolve("rejected");
        for (Path dir : List.of(ownCerts, ownPrivate, trustedCerts, trustedCrl, issuersCerts, issuersCrl, rejected)) {
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the PKI directory " + dir + ": " + e.getMessage(), e);
            }
        }
        synchronized (reloadLock) {
            reloadIfChanged();
            nextCheckNanos = System.nanoTime() + reloadIntervalNanos;
        }
    }

    public Path root() {
        return root;
    }

    public Path ownCertsDir() {
        return ownCerts;
    }

    public Path ownPrivateDir() {
        return ownPrivate;
    }

    public Path trustedCertsDir() {
        return trustedCerts;
    }

    public Path trustedCrlDir() {
        return trustedCrl;
    }

    public Path issuersCertsDir() {
        return issuersCerts;
    }

    public Path issuersCrlDir() {
        return issuersCrl;
    }

    public Path rejectedDir() {
        return rejected;
    }

    /**
     * The current trust material; rereads the directories first when the reload interval has passed since
     * the last look and their listings changed.
     */
    public TrustList trustList() {
        if (System.nanoTime() - nextCheckNanos >= 0) {
            synchronized (reloadLock) {
                if (System.nanoTime() - nextCheckNanos >= 0) {
                    reloadIfChanged();
                    nextCheckNanos = System.nanoTime() + reloadIntervalNanos;
                }
            }
        }
        return trustList;
    }

    /** Looks at the trust directories now, regardless of the reload interval. */
    public TrustList reload() {
        synchronized (reloadLock) {
            reloadIfChanged();
            nextCheckNanos = System.nanoTime() + reloadIntervalNanos;
        }
        return trustList;
    }

    /**
     * Loads this application's certificate from {@code own/certs/<name>.der} and {@code own/private/<name>.pem}
     * ({@code <name>} is the application name made safe for file names), or creates a self-signed one with
     * {@link CertificateBuilder} and writes it there when there is none. Logs which certificate is used.
     *
     * @throws IllegalArgumentException when the files exist but cannot be used (naming the file and why)
     */
    public ApplicationCertificate loadOrCreateApplicationCertificate(String applicationUri, String applicationName,
            List<String> hostNames, int keySize, Duration validity) {
        return loadOrCreateApplicationCertificate(CertificateType.RSA_SHA256, applicationUri, applicationName,
                hostNames, keySize, validity);
    }

    /**
     * As {@link #loadOrCreateApplicationCertificate(String, String, List, int, Duration)} for a certificate of
     * {@code type}: an application holds one of each type its security policies need (Part 12, 7.8.4). The
     * RSA certificate lives in {@code <name>.der}, the others in {@code <name>.<type suffix>.der}, e.g.
     * {@code own/certs/MyServer.ecc-nistP256.der}; {@code keySize} applies to RSA only.
     */
    public ApplicationCertificate loadOrCreateApplicationCertificate(CertificateType type, String applicationUri,
            String applicationName, List<String> hostNames, int keySize, Duration validity) {
        String base = base(type, applicationName);
        Path certificateFile = ownCerts.resolve(base + ".der");
        Path keyFile = ownPrivate.resolve(base + ".pem");
        if (Files.exists(certificateFile)) {
            if (!Files.exists(keyFile)) {
                throw new IllegalArgumentException("the application certificate " + certificateFile
                        + " has no private key: " + keyFile + " is missing");
            }
            ApplicationCertificate loaded = CertificateLoader.loadPem(certificateFile, keyFile);
            X509Certificate c = loaded.certificate();
            if (loaded.type() != type) {
                throw new IllegalArgumentException("the application certificate " + certificateFile + " holds an "
                        + Certificates.describeKey(c) + " key where a " + type + " certificate belongs");
            }
            String uri = PkiCertificateValidator.applicationUriOf(c);
            if (applicationUri != null && !applicationUri.equals(uri)) {
                LOG.warn("application certificate {} holds the application URI '{}' but the application's URI is "
                        + "'{}': peers will reject it (BadCertificateUriInvalid); replace {} or fix the URI",
                        X509Names.describe(c), uri, applicationUri, certificateFile);
            }
            Instant expiry = c.getNotAfter().toInstant();
            if (expiry.isBefore(Instant.now())) {
                LOG.warn("application certificate {} from {} expired on {}: peers will reject it "
                        + "(BadCertificateTimeInvalid); delete it to have a new one created",
                        X509Names.describe(c), certificateFile, expiry);
            }
            LOG.info("using application certificate {} from {}, valid until {}", X509Names.describe(c),
                    certificateFile, expiry);
            return loaded;
        }
        ApplicationCertificate created = CertificateBuilder.forApplication(applicationName)
                .type(type)
                .applicationUri(applicationUri)
                .hostNames(hostNames)
                .keySize(keySize)
                .validity(validity)
                .build();
        // key first: a crash in between leaves a key without certificate, which the next start replaces
        CertificateLoader.save(created, certificateFile, keyFile);
        LOG.info("created self-signed application certificate {} ({}, valid until {}) in {} and {}",
                X509Names.describe(created.certificate()), Certificates.describeKey(created.certificate()),
                created.certificate().getNotAfter().toInstant(),
                certificateFile, keyFile);
        return created;
    }

    /**
     * Writes a certificate that failed the trust check into {@code rejected/} as
     * {@code <CN> [<thumbprint>].der}, where an administrator can review it and move it to
     * {@code trusted/certs}. Idempotent; keeps at most the configured number of files, deleting the oldest.
     *
     * @return the file
     * @throws UncheckedIOException when it cannot be written
     */
    public Path reject(X509Certificate certificate) {
        Path file = rejected.resolve(X509Names.sanitise(X509Names.commonName(certificate)) + " ["
                + X509Names.thumbprintHex(certificate) + "].der");
        if (Files.exists(file)) {
            return file;
        }
        try {
            CertificateLoader.writeAtomically(file, certificate.getEncoded(), false);
        } catch (CertificateEncodingException e) {
            throw new IllegalArgumentException("cannot encode " + X509Names.describe(certificate), e);
        }
        LOG.info("copied rejected certificate {} to {}; move it to {} to trust it", X509Names.describe(certificate),
                file, trustedCerts);
        pruneRejected();
        return file;
    }

    /**
     * The certificates in {@code rejected/}, oldest first: what Part 12, 7.10.12 GetRejectedList returns.
     * Unreadable files are skipped.
     */
    public List<X509Certificate> rejectedCertificates() {
        List<FileStamp> files = list(rejected, CERTIFICATE_EXTENSIONS);
        files.sort(Comparator.comparingLong(FileStamp::modifiedMicros).thenComparing(f -> f.file().toString()));
        List<X509Certificate> certificates = new ArrayList<>();
        for (FileStamp f : files) {
            try {
                certificates.addAll(CertificateLoader.readCertificates(f.file()));
            } catch (RuntimeException e) {
                LOG.debug("skipping unreadable rejected certificate {}: {}", f.file(), e.getMessage());
            }
        }
        return certificates;
    }

    /**
     * Replaces the certificates of {@code trusted/certs} ({@code trusted} true) or {@code issuers/certs} by
     * {@code certificates}: each is written as {@code <CN> [<thumbprint>].der}, then every other certificate
     * file of the directory is deleted, and the trust material is reread. Written first, deleted last: a
     * crash in between leaves the union of both lists, never an empty one.
     *
     * @throws UncheckedIOException when a file cannot be written or deleted
     */
    public void replaceCertificates(boolean trusted, List<X509Certificate> certificates) {
        Path dir = trusted ? trustedCerts : issuersCerts;
        Set<Path> kept = new HashSet<>();
        for (X509Certificate c : certificates) {
            kept.add(writeCertificate(dir, c));
        }
        deleteAllBut(dir, CERTIFICATE_EXTENSIONS, kept);
        reload();
    }

    /**
     * Replaces the CRLs of {@code trusted/crl} ({@code trusted} true) or {@code issuers/crl} by {@code crls},
     * each written as {@code <issuer CN> [<SHA-1 of the CRL>].crl}, the same way as {@link #replaceCertificates}.
     *
     * @throws UncheckedIOException when a file cannot be written or deleted
     */
    public void replaceCrls(boolean trusted, List<X509CRL> crls) {
        Path dir = trusted ? trustedCrl : issuersCrl;
        Set<Path> kept = new HashSet<>();
        for (X509CRL crl : crls) {
            kept.add(writeCrl(dir, crl));
        }
        deleteAllBut(dir, CRL_EXTENSIONS, kept);
        reload();
    }

    /**
     * Adds one certificate to {@code trusted/certs} ({@code trusted} true) or {@code issuers/certs} and rereads
     * the trust material, so that the next validation sees it. Idempotent.
     *
     * @return the file written
     */
    public Path addCertificate(X509Certificate certificate, boolean trusted) {
        Path file = writeCertificate(trusted ? trustedCerts : issuersCerts, certificate);
        reload();
        LOG.info("added {} to {}", X509Names.describe(certificate), file.getParent());
        return file;
    }

    /**
     * Removes the certificate with SHA-1 thumbprint {@code thumbprintHex} (hex, any case) from
     * {@code trusted/certs} ({@code trusted} true) or {@code issuers/certs}, and the CRLs that CA issued from the
     * matching CRL directory (Part 12, 7.8.2.7), then rereads the trust material.
     *
     * @return whether a certificate with that thumbprint was there
     * @throws UncheckedIOException when a file cannot be rewritten or deleted
     */
    public boolean removeCertificate(String thumbprintHex, boolean trusted) {
        String wanted = thumbprintHex.toLowerCase(Locale.ROOT);
        Path dir = trusted ? trustedCerts : issuersCerts;
        List<X509Certificate> removed = new ArrayList<>();
        for (FileStamp f : list(dir, CERTIFICATE_EXTENSIONS)) {
            List<X509Certificate> inFile;
            try {
                inFile = CertificateLoader.readCertificates(f.file());
            } catch (RuntimeException e) {
                continue;
            }
            List<X509Certificate> rest = new ArrayList<>();
            for (X509Certificate c : inFile) {
                if (X509Names.thumbprintHex(c).equals(wanted)) {
                    removed.add(c);
                } else {
                    rest.add(c);
                }
            }
            if (rest.size() == inFile.size()) {
                continue;
            }
            delete(f.file());
            for (X509Certificate c : rest) {
                writeCertificate(dir, c); // a file of several certificates keeps the others, one file each
            }
        }
        if (removed.isEmpty()) {
            return false;
        }
        Path crlDir = trusted ? trustedCrl : issuersCrl;
        for (FileStamp f : list(crlDir, CRL_EXTENSIONS)) {
            try {
                for (X509CRL crl : CertificateLoader.readCrls(f.file())) {
                    if (crl.getIssuerX500Principal().equals(removed.get(0).getSubjectX500Principal())) {
                        delete(f.file());
                        break;
                    }
                }
            } catch (RuntimeException e) {
                // unreadable: not this CA's as far as anyone can tell
            }
        }
        reload();
        LOG.info("removed {} from {}", X509Names.describe(removed.get(0)), dir);
        return true;
    }

    /**
     * Writes {@code certificate} (with its issuers) and its key where
     * {@link #loadOrCreateApplicationCertificate} reads them for {@code applicationName}, replacing what is
     * there, so that the next start uses it.
     */
    public void saveApplicationCertificate(ApplicationCertificate certificate, String applicationName) {
        String base = base(certificate.type(), applicationName);
        CertificateLoader.save(certificate, ownCerts.resolve(base + ".der"), ownPrivate.resolve(base + ".pem"));
        LOG.info("saved application certificate {} in {}", X509Names.describe(certificate.certificate()), ownCerts);
    }

    /**
     * Where a private key made for a certificate request waits for its certificate:
     * {@code own/private/<name>.pending.pem} (Part 12, 7.10.10 has it persisted until UpdateCertificate).
     */
    public Path pendingKeyFile(String applicationName) {
        return pendingKeyFile(CertificateType.RSA_SHA256, applicationName);
    }

    /** {@link #pendingKeyFile(String)} for a certificate of {@code type}: {@code own/private/<name>[.<suffix>].pending.pem}. */
    public Path pendingKeyFile(CertificateType type, String applicationName) {
        return ownPrivate.resolve(base(type, applicationName) + ".pending.pem");
    }

    /** The file name of the application's certificate of a type, without extension: the RSA one plain, the others suffixed. */
    private static String base(CertificateType type, String applicationName) {
        String name = X509Names.sanitise(Objects.requireNonNull(applicationName, "applicationName"));
        return type == CertificateType.RSA_SHA256 ? name : name + "." + type.fileSuffix();
    }

    private static Path writeCertificate(Path dir, X509Certificate certificate) {
        Path file = dir.resolve(X509Names.sanitise(X509Names.commonName(certificate)) + " ["
                + X509Names.thumbprintHex(certificate) + "].der");
        try {
            CertificateLoader.writeAtomically(file, certificate.getEncoded(), false);
        } catch (CertificateEncodingException e) {
            throw new IllegalArgumentException("cannot encode " + X509Names.describe(certificate), e);
        }
        return file;
    }

    private static Path writeCrl(Path dir, X509CRL crl) {
        try {
            byte[] der = crl.getEncoded();
            String issuer = crl.getIssuerX500Principal().getName();
            Path file = dir.resolve(X509Names.sanitise(issuer) + " ["
                    + Certificates.hex(MessageDigest.getInstance("SHA-1").digest(der)) + "].crl");
            CertificateLoader.writeAtomically(file, der, false);
            return file;
        } catch (CRLException | NoSuchAlgorithmException e) {
            throw new IllegalArgumentException("cannot encode the CRL of " + crl.getIssuerX500Principal(), e);
        }
    }

    private static void deleteAllBut(Path dir, Set<String> extensions, Set<Path> kept) {
        for (FileStamp f : list(dir, extensions)) {
            if (!kept.contains(f.file())) {
                delete(f.file());
            }
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file + ": " + e.getMessage(), e);
        }
    }

    private void pruneRejected() {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(rejected, "*.der")) {
            for (Path p : dir) {
                if (Files.isRegularFile(p)) {
                    files.add(p);
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot list {}: {}", rejected, e.toString());
            return;
        }
        if (files.size() <= maxRejected) {
            return;
        }
        files.sort(Comparator.comparingLong(PkiDirectory::modifiedMillis).thenComparing(Path::toString));
        for (Path p : files.subList(0, files.size() - maxRejected)) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                LOG.warn("cannot delete old rejected certificate {}: {}", p, e.toString());
            }
        }
    }

    private static long modifiedMillis(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Name, size and modification time of one file: what tells the directories changed. */
    private record FileStamp(Path file, long size, long modifiedMicros) {
    }

    // guarded by reloadLock
    private void reloadIfChanged() {
        List<FileStamp> now = new ArrayList<>();
        for (Path dir : List.of(trustedCerts, issuersCerts, trustedCrl, issuersCrl)) {
            now.addAll(list(dir, dir == trustedCrl || dir == issuersCrl ? CRL_EXTENSIONS : CERTIFICATE_EXTENSIONS));
        }
        if (loadedOnce && now.equals(stamps)) {
            return;
        }
        Set<FileStamp> bad = new HashSet<>();
        TrustList loaded = new TrustList(
                readCertificates(trustedCerts, now, bad), readCertificates(issuersCerts, now, bad),
                readCrls(trustedCrl, now, bad), readCrls(issuersCrl, now, bad));
        boolean first = !loadedOnce;
        loadedOnce = true;
        stamps = List.copyOf(now);
        unreadable = Set.copyOf(bad);
        trustList = loaded;
        if (first) {
            LOG.debug("read trust material from {}: {}", root, loaded);
        } else {
            LOG.info("trust material in {} changed, reloaded: {}", root, loaded);
        }
    }

    private List<X509Certificate> readCertificates(Path dir, List<FileStamp> files, Set<FileStamp> bad) {
        List<X509Certificate> certificates = new ArrayList<>();
        for (FileStamp f : files) {
            if (f.file().getParent().equals(dir)) {
                try {
                    certificates.addAll(CertificateLoader.readCertificates(f.file()));
                } catch (RuntimeException e) {
                    unreadable(f, e, bad);
                }
            }
        }
        return certificates;
    }

    private List<X509CRL> readCrls(Path dir, List<FileStamp> files, Set<FileStamp> bad) {
        List<X509CRL> crls = new ArrayList<>();
        for (FileStamp f : files) {
            if (f.file().getParent().equals(dir)) {
                try {
                    crls.addAll(CertificateLoader.readCrls(f.file()));
                } catch (RuntimeException e) {
                    unreadable(f, e, bad);
                }
            }
        }
        return crls;
    }

    private void unreadable(FileStamp f, RuntimeException e, Set<FileStamp> bad) {
        bad.add(f);
        if (!unreadable.contains(f)) {
            LOG.warn("ignoring unreadable trust material: {}", e.getMessage());
        }
    }

    private static List<FileStamp> list(Path dir, Set<String> extensions) {
        List<FileStamp> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) {
                String name = p.getFileName().toString();
                int dot = name.lastIndexOf('.');
                // hidden files include the temporary files of writeAtomically
                if (name.startsWith(".") || dot < 0
                        || !extensions.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT))) {
                    continue;
                }
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    if (a.isRegularFile()) {
                        files.add(new FileStamp(p, a.size(), a.lastModifiedTime().to(TimeUnit.MICROSECONDS)));
                    }
                } catch (NoSuchFileException e) {
                    // removed while listing: the next look sees the final state
                }
            }
        } catch (NoSuchFileException e) {
            // deleted by hand: empty until it is created again (debug, as this is seen on every look)
            LOG.debug("PKI directory {} is missing; treating it as empty", dir);
        } catch (IOException e) {
            LOG.warn("cannot list {}: {}", dir, e.toString());
        }
        files.sort(Comparator.comparing(f -> f.file().toString()));
        return files;
    }
}
