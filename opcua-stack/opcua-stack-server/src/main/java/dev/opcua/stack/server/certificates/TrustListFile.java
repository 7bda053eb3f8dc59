package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.TrustList;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.structured.TrustListDataType;
import dev.opcua.stack.server.session.Session;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DefaultApplicationGroup's TrustList as a file (Part 12, 7.8.2; FileType of Part 20, 4.2): Open
 * (Read 0x01, or Write + EraseExisting 0x06 only), OpenWithMasks, Read, Write, GetPosition, SetPosition,
 * Close, CloseAndUpdate, AddCertificate and RemoveCertificate over the PKI directory. A file opened for
 * reading is a snapshot of the trust list at Open; one opened for writing changes nothing until
 * CloseAndUpdate, which replaces the lists the written TrustListDataType specifies in the PKI directory,
 * where the next certificate validation finds them. Without transactions, every change takes effect at
 * once (applyChangesRequired false, Part 12, 7.8.2.5).
 *
 * <p>A handle belongs to the session that opened it (Part 20, 4.2.2): another session's calls with it are
 * Bad_InvalidArgument. One writer at a time; at most {@value #MAX_OPEN} handles, those of closed sessions
 * dropped first. Thread-safe: every method holds the object's lock.
 */
public final class TrustListFile {

    private static final Logger log = LoggerFactory.getLogger(TrustListFile.class);

    /** FileType.Open modes (Part 20, 4.2.2.1). */
    static final int MODE_READ = 0x01;
    static final int MODE_WRITE_ERASE_EXISTING = 0x06;
    static final int MAX_OPEN = 16;

    private final PkiDirectory pki;
    private final int maxTrustListSize;
    private final Map<Long, OpenFile> open = new HashMap<>();
    private long nextHandle = 1;
    private volatile DateTime lastUpdateTime = DateTime.MIN_VALUE;

    /** The state of one handle: what it reads, or what has been written to it so far. */
    private static final class OpenFile {
        final Session owner;
        final boolean writing;
        byte[] content;
        int size;
        int position;

        OpenFile(Session owner, boolean writing, byte[] content) {
            this.owner = owner;
            this.writing = writing;
            this.content = content;
            this.size = content.length;
        }
    }

    /**
     * @param maxTrustListSize MaxTrustListSize in bytes (Part 12, 7.10.3); 0 = no limit
     */
    public TrustListFile(PkiDirectory pki, int maxTrustListSize) {
        if (maxTrustListSize < 0) {
            throw new IllegalArgumentException("maxTrustListSize must be >= 0 (0 = no limit), was " + maxTrustListSize);
        }
        this.pki = pki;
        this.maxTrustListSize = maxTrustListSize;
    }

    public int maxTrustListSize() {
        return maxTrustListSize;
    }

    /** The time of the last change made through this object (TrustListType.LastUpdateTime). */
    public DateTime lastUpdateTime() {
        return lastUpdateTime;
    }

    /** How many handles are open (FileType.OpenCount). */
    public synchronized int openCount() {
        return open.size();
    }

    /**
     * FileType.Open: {@code mode} 0x01 reads the whole trust list, 0x06 starts an empty file to write.
     *
     * @throws UaException BadNotSupported for another mode, BadNotWritable when another handle writes,
     *         BadTooManyOperations with {@value #MAX_OPEN} handles open
     */
    public synchronized long open(Session session, int mode) {
        if (mode == MODE_READ) {
            return openForReading(session, TrustListCodec.ALL);
        }
        if (mode != MODE_WRITE_ERASE_EXISTING) {
            throw new UaException(StatusCodes.BadNotSupported, "the TrustList opens with mode 0x01 (Read) or 0x06 "
                    + "(Write + EraseExisting) only, not 0x" + Integer.toHexString(mode) + " (Part 12, 7.8.2.1)");
        }
        dropClosedSessions();
        if (open.values().stream().anyMatch(f -> f.writing)) {
            throw new UaException(StatusCodes.BadNotWritable, "the TrustList is open for writing already");
        }
        return add(new OpenFile(session, true, new byte[1024]), 0);
    }

    /** TrustListType.OpenWithMasks (Part 12, 7.8.2.3): the lists {@code masks} selects, for reading. */
    public synchronized long openWithMasks(Session session, long masks) {
        return openForReading(session, masks);
    }

    private long openForReading(Session session, long masks) {
        dropClosedSessions();
        byte[] content = TrustListCodec.encode(TrustListCodec.of(pki.trustList(), masks));
        return add(new OpenFile(session, false, content), content.length);
    }

    private long add(OpenFile file, int size) {
        if (open.size() >= MAX_OPEN) {
            throw new UaException(StatusCodes.BadTooManyOperations, "the TrustList has " + MAX_OPEN
                    + " open handles already");
        }
        file.size = size;
        long handle = nextHandle;
        nextHandle = nextHandle == 0xFFFF_FFFFL ? 1 : nextHandle + 1;
        open.put(handle, file);
        return handle;
    }

    /**
     * FileType.Read: up to {@code length} bytes from the position; empty at the end.
     *
     * @throws UaException BadInvalidArgument for a handle that is not the session's or a negative length,
     *         BadInvalidState for a handle opened for writing
     */
    public synchronized byte[] read(Session session, long handle, int length) {
        OpenFile file = file(session, handle);
        if (file.writing) {
            throw new UaException(StatusCodes.BadInvalidState, "handle " + handle + " was opened for writing");
        }
        if (length < 0) {
            throw new UaException(StatusCodes.BadInvalidArgument, "Read length " + length + " is negative");
        }
        int n = Math.min(length, file.size - file.position);
        byte[] chunk = Arrays.copyOfRange(file.content, file.position, file.position + n);
        file.position += n;
        return chunk;
    }

    /**
     * FileType.Write at the position.
     *
     * @throws UaException BadNotWritable for a handle opened for reading, BadRequestTooLarge when the file would
     *         grow past MaxTrustListSize (the bytes are not taken)
     */
    public synchronized void write(Session session, long handle, byte[] data) {
        OpenFile file = file(session, handle);
        if (!file.writing) {
            throw new UaException(StatusCodes.BadNotWritable, "handle " + handle + " was opened for reading");
        }
        long end = (long) file.position + data.length;
        if (maxTrustListSize > 0 && end > maxTrustListSize) {
            log.warn("TrustList write refused: the file would grow to {} bytes, past MaxTrustListSize {}", end,
                    maxTrustListSize);
            throw new UaException(StatusCodes.BadRequestTooLarge, "the TrustList file would grow to " + end
                    + " bytes, past MaxTrustListSize " + maxTrustListSize);
        }
        if (end > Integer.MAX_VALUE - 8) {
            throw new UaException(StatusCodes.BadRequestTooLarge, "the TrustList file would grow to " + end + " bytes");
        }
        if (end > file.content.length) {
            file.content = Arrays.copyOf(file.content, (int) Math.max(end, Math.min(2L * file.content.length,
                    Integer.MAX_VALUE - 8)));
        }
        System.arraycopy(data, 0, file.content, file.position, data.length);
        file.position = (int) end;
        file.size = Math.max(file.size, file.position);
    }

    /** FileType.GetPosition. */
    public synchronized long getPosition(Session session, long handle) {
        return file(session, handle).position;
    }

    /** FileType.SetPosition: past the end means the end (Part 20, 4.2.2.6). */
    public synchronized void setPosition(Session session, long handle, long position) {
        OpenFile file = file(session, handle);
        file.position = position < 0 || position > file.size ? file.size : (int) position;
    }

    /** FileType.Close: what was written is discarded. */
    public synchronized void close(Session session, long handle) {
        file(session, handle);
        open.remove(handle);
    }

    /**
     * TrustListType.CloseAndUpdate (Part 12, 7.8.2.5): closes the handle, then decodes, parses and validates
     * what was written and replaces the lists it specifies in the PKI directory; on any error the trust list
     * stays as it was.
     *
     * @return applyChangesRequired: false, the change is in effect
     * @throws UaException BadInvalidState for a handle opened for reading; BadRequestTooLarge,
     *         BadDecodingError, BadCertificateInvalid or a validation status for the content
     */
    public synchronized boolean closeAndUpdate(Session session, long handle) {
        OpenFile file = file(session, handle);
        if (!file.writing) {
            throw new UaException(StatusCodes.BadInvalidState, "CloseAndUpdate needs a handle opened for writing; "
                    + handle + " was opened for reading");
        }
        open.remove(handle);
        TrustListDataType written = TrustListCodec.decode(Arrays.copyOf(file.content, file.size), maxTrustListSize);
        TrustList given = TrustListCodec.parse(written);
        long masks = written.specifiedLists();
        TrustList current = pki.trustList();
        TrustList next = new TrustList(
                (masks & TrustListCodec.TRUSTED_CERTIFICATES) != 0 ? given.trustedCertificates()
                        : current.trustedCertificates(),
                (masks & TrustListCodec.ISSUER_CERTIFICATES) != 0 ? given.issuerCertificates()
                        : current.issuerCertificates(),
                (masks & TrustListCodec.TRUSTED_CRLS) != 0 ? given.trustedCrls() : current.trustedCrls(),
                (masks & TrustListCodec.ISSUER_CRLS) != 0 ? given.issuerCrls() : current.issuerCrls());
        for (X509Certificate c : next.trustedCertificates()) {
            CertificateChecks.validate(List.of(c), next, "trusted certificate " + describe(c));
        }
        for (X509Certificate c : next.issuerCertificates()) {
            CertificateChecks.validate(List.of(c), next, "issuer certificate " + describe(c));
        }
        if ((masks & TrustListCodec.TRUSTED_CERTIFICATES) != 0) {
            pki.replaceCertificates(true, next.trustedCertificates());
        }
        if ((masks & TrustListCodec.ISSUER_CERTIFICATES) != 0) {
            pki.replaceCertificates(false, next.issuerCertificates());
        }
        if ((masks & TrustListCodec.TRUSTED_CRLS) != 0) {
            pki.replaceCrls(true, next.trustedCrls());
        }
        if ((masks & TrustListCodec.ISSUER_CRLS) != 0) {
            pki.replaceCrls(false, next.issuerCrls());
        }
        lastUpdateTime = DateTime.now();
        log.info("TrustList replaced by CloseAndUpdate (SpecifiedLists {}): {}", masks, pki.trustList());
        return false;
    }

    /**
     * TrustListType.AddCertificate (Part 12, 7.8.2.6): validates the certificate (a chain: the certificate, then
     * its CAs) and writes it to trusted/certs, its CAs to issuers/certs.
     *
     * @throws UaException BadInvalidState while the TrustList is open; BadCertificateInvalid when
     *         {@code isTrustedCertificate} is false (issuers go in through CloseAndUpdate) or the certificate
     *         does not parse; a validation status; BadRequestTooLarge past MaxTrustListSize
     */
    public synchronized void addCertificate(byte[] certificate, boolean isTrustedCertificate) {
        requireClosed("AddCertificate");
        if (!isTrustedCertificate) {
            throw new UaException(StatusCodes.BadCertificateInvalid, "AddCertificate adds trusted certificates only "
                    + "(isTrustedCertificate false; Part 12, 7.8.2.6): write issuers with CloseAndUpdate");
        }
        List<X509Certificate> chain = TrustListCodec.parseCertificateChain(certificate, "AddCertificate certificate");
        TrustList current = pki.trustList();
        List<X509Certificate> trusted = new ArrayList<>(current.trustedCertificates());
        trusted.add(chain.get(0));
        List<X509Certificate> issuers = new ArrayList<>(current.issuerCertificates());
        issuers.addAll(chain.subList(1, chain.size()));
        TrustList next = new TrustList(trusted, issuers, current.trustedCrls(), current.issuerCrls());
        CertificateChecks.validate(chain, next, "AddCertificate " + describe(chain.get(0)));
        int size = TrustListCodec.encode(TrustListCodec.of(next, TrustListCodec.ALL)).length;
        if (maxTrustListSize > 0 && size > maxTrustListSize) {
            throw new UaException(StatusCodes.BadRequestTooLarge, "adding " + describe(chain.get(0))
                    + " would make the trust list " + size + " bytes, past MaxTrustListSize " + maxTrustListSize);
        }
        for (X509Certificate ca : chain.subList(1, chain.size())) {
            pki.addCertificate(ca, false);
        }
        pki.addCertificate(chain.get(0), true);
        lastUpdateTime = DateTime.now();
    }

    /**
     * TrustListType.RemoveCertificate (Part 12, 7.8.2.7) by SHA-1 thumbprint (hex).
     *
     * @throws UaException BadInvalidState while the TrustList is open, BadInvalidArgument when no certificate of
     *         the list has that thumbprint
     */
    public synchronized void removeCertificate(String thumbprint, boolean isTrustedCertificate) {
        requireClosed("RemoveCertificate");
        if (thumbprint == null || !thumbprint.matches("[0-9a-fA-F]{40}")) {
            throw new UaException(StatusCodes.BadInvalidArgument, "RemoveCertificate needs the SHA-1 thumbprint as 40"
                    + " hex digits, not '" + thumbprint + "'");
        }
        if (!pki.removeCertificate(thumbprint, isTrustedCertificate)) {
            throw new UaException(StatusCodes.BadInvalidArgument, "no certificate with thumbprint " + thumbprint
                    + " in the " + (isTrustedCertificate ? "trusted" : "issuer") + " certificates");
        }
        lastUpdateTime = DateTime.now();
    }

    private void requireClosed(String method) {
        dropClosedSessions();
        if (!open.isEmpty()) {
            throw new UaException(StatusCodes.BadInvalidState, method + " cannot run while the TrustList is open ("
                    + open.size() + " handles; Part 12, 7.8.2.6)");
        }
    }

    private OpenFile file(Session session, long handle) {
        OpenFile file = open.get(handle);
        if (file == null || file.owner != session) {
            throw new UaException(StatusCodes.BadInvalidArgument, "file handle " + handle + " is not open in this "
                    + "session");
        }
        return file;
    }

    private void dropClosedSessions() {
        open.values().removeIf(f -> f.owner != null && f.owner.isClosed());
    }

    private static String describe(X509Certificate c) {
        return "'" + c.getSubjectX500Principal().getName() + "' [" + Certificates.hex(Certificates.thumbprint(c))
                + "]";
    }
}
