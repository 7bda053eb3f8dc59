package dev.opcua.stack.core.security;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The application instance certificate an application uses now, which may be replaced while it runs
 * (a renewed certificate, a reloaded key store). Whoever needs the certificate reads it here at the
 * moment it starts something: a secure channel keeps the certificate it was opened with for its whole
 * life (its renewals are encrypted for that one), a new channel takes the current one. The previous
 * certificate stays known, so that a session created before a replacement can still prove itself
 * against the certificate it was given (Part 4, 5.6.3).
 */
public final class ApplicationCertificateSlot {

    private volatile ApplicationCertificate current;
    private volatile ApplicationCertificate previous;
    private final List<Consumer<ApplicationCertificate>> listeners = new CopyOnWriteArrayList<>();

    /** @param initial the certificate to start with; null for an application without one (SecurityPolicy None only) */
    public ApplicationCertificateSlot(ApplicationCertificate initial) {
        this.current = initial;
    }

    /** The certificate in use now; null when there is none. */
    public ApplicationCertificate get() {
        return current;
    }

    /** The certificate the last {@link #replace} took out; null before the first replacement. */
    public ApplicationCertificate previous() {
        return previous;
    }

    /**
     * Puts {@code next} in use for everything that starts from now on, and tells the listeners.
     *
     * @throws IllegalArgumentException when the slot had no certificate (an application that serves
     *         None only cannot start serving secured endpoints by a replacement)
     */
    public synchronized void replace(ApplicationCertificate next) {
        Objects.requireNonNull(next, "next");
        if (current == null) {
            throw new IllegalArgumentException("there is no application certificate to replace: the endpoints"
                    + " offered were chosen without one");
        }
        previous = current;
        current = next;
        for (Consumer<ApplicationCertificate> listener : listeners) {
            listener.accept(next);
        }
    }

    /** Calls {@code listener} with each new certificate, on the thread that replaces it. */
    public void onReplace(Consumer<ApplicationCertificate> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public String toString() {
        return "ApplicationCertificateSlot[" + current + "]";
    }
}
