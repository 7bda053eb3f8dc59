package dev.opcua.stack.core.security;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The application instance certificates an application holds, at most one of each
 * {@link CertificateType} (Part 12, 7.8.4: a CertificateGroup lists the types it has), each in its own
 * {@link ApplicationCertificateSlot} so that it can be replaced while the application runs. A security
 * policy uses the certificate of its type: the RSA policies the RSA certificate, ECC_nistP256 the P-256
 * one, and so on.
 */
public final class ApplicationCertificates {

    /** No certificate at all: an application that serves or uses SecurityPolicy None only. */
    public static final ApplicationCertificates NONE = new ApplicationCertificates(Collections.emptyList());

    private final Map<CertificateType, ApplicationCertificateSlot> slots = new EnumMap<>(CertificateType.class);

    /**
     * @throws IllegalArgumentException when two certificates are of the same type
     */
    public ApplicationCertificates(Collection<ApplicationCertificate> certificates) {
        for (ApplicationCertificate c : certificates) {
            Objects.requireNonNull(c, "certificate");
            if (slots.putIfAbsent(c.type(), new ApplicationCertificateSlot(c)) != null) {
                throw new IllegalArgumentException("two application certificates of type " + c.type()
                        + ": an application holds one of each type");
            }
        }
    }

    /** The given certificates; a null one (None only) is left out. */
    public static ApplicationCertificates of(ApplicationCertificate... certificates) {
        return new ApplicationCertificates(Arrays.stream(certificates).filter(Objects::nonNull).toList());
    }

    /** The slot of a type; null when the application has no certificate of that type. */
    public ApplicationCertificateSlot slot(CertificateType type) {
        return slots.get(type);
    }

    /** The certificate of a type in use now; null when there is none. */
    public ApplicationCertificate get(CertificateType type) {
        ApplicationCertificateSlot slot = slots.get(type);
        return slot == null ? null : slot.get();
    }

    /** The certificate a channel or session with {@code policy} uses now; null for None or when missing. */
    public ApplicationCertificate forPolicy(SecurityPolicy policy) {
        return policy.certificateType() == null ? null : get(policy.certificateType());
    }

    /** The certificate of a type before its last replacement; null when never replaced. */
    public ApplicationCertificate previous(CertificateType type) {
        ApplicationCertificateSlot slot = slots.get(type);
        return slot == null ? null : slot.previous();
    }

    /**
     * The certificate an application shows when one is asked for without a policy (the RSA one, else the
     * first by type); null when there is none.
     */
    public ApplicationCertificate primary() {
        for (ApplicationCertificateSlot slot : slots.values()) {
            return slot.get();
        }
        return null;
    }

    /** The types held. */
    public Set<CertificateType> types() {
        return Collections.unmodifiableSet(slots.keySet());
    }

    /** The first certificate type that {@code policies} (None aside) need and that is missing; null when none is. */
    public CertificateType missingFor(Collection<SecurityPolicy> policies) {
        for (SecurityPolicy p : policies) {
            if (p.certificateType() != null && !slots.containsKey(p.certificateType())) {
                return p.certificateType();
            }
        }
        return null;
    }

    /** Calls {@code listener} with each replaced certificate of any type, on the replacing thread. */
    public void onReplace(Consumer<ApplicationCertificate> listener) {
        slots.values().forEach(slot -> slot.onReplace(listener));
    }

    /**
     * Puts {@code next} in use in the slot of its type.
     *
     * @throws IllegalArgumentException when the application holds no certificate of that type
     */
    public void replace(ApplicationCertificate next) {
        ApplicationCertificateSlot slot = slots.get(next.type());
        if (slot == null) {
            throw new IllegalArgumentException("there is no " + next.type() + " application certificate to replace;"
                    + " this application holds " + slots.keySet());
        }
        slot.replace(next);
    }

    @Override
    public String toString() {
        return "ApplicationCertificates" + slots.values();
    }
}
