package dev.opcua.stack.core.security.pki;

import dev.opcua.stack.core.config.InvalidSettingException;
import java.time.Clock;
import java.util.Objects;

/**
 * Options of {@link PkiCertificateValidator}: the limits of its security policy check and whether the trust
 * check may be skipped (Part 4, 6.1.3).
 *
 * @param minKeyBits smallest RSA modulus accepted in any certificate of a chain; 2048 by default
 * @param rejectSha1Signed whether certificates signed with SHA-1 fail the policy check; true by default
 * @param autoAcceptUntrusted whether a certificate that passes every check but trust is accepted anyway
 *        (development only; the validator logs a warning); false by default
 * @param clock the time validity periods are checked against
 * @throws InvalidSettingException {@code validationOptions.minKeyBits} when it is negative
 */
public record ValidationOptions(int minKeyBits, boolean rejectSha1Signed, boolean autoAcceptUntrusted, Clock clock) {

    public ValidationOptions {
        if (minKeyBits < 0) {
            throw new InvalidSettingException("validationOptions.minKeyBits", minKeyBits,
                    "must not be negative (0 accepts any key size)");
        }
        Objects.requireNonNull(clock, "clock");
    }

    /** 2048-bit keys, SHA-1 rejected, untrusted certificates rejected, the system clock. */
    public static ValidationOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().minKeyBits(minKeyBits).rejectSha1Signed(rejectSha1Signed)
                .autoAcceptUntrusted(autoAcceptUntrusted).clock(clock);
    }

    /** Builder of {@link ValidationOptions}, starting from the defaults. */
    public static final class Builder {

        private int minKeyBits = 2048;
        private boolean rejectSha1Signed = true;
        private boolean autoAcceptUntrusted;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        public Builder minKeyBits(int minKeyBits) {
            this.minKeyBits = minKeyBits;
            return this;
        }

        public Builder rejectSha1Signed(boolean rejectSha1Signed) {
            this.rejectSha1Signed = rejectSha1Signed;
            return this;
        }

        public Builder autoAcceptUntrusted(boolean autoAcceptUntrusted) {
            this.autoAcceptUntrusted = autoAcceptUntrusted;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public ValidationOptions build() {
            return new ValidationOptions(minKeyBits, rejectSha1Signed, autoAcceptUntrusted, clock);
        }
    }
}
