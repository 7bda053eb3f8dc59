package dev.opcua.spring.boot.test.assertj;

import dev.opcua.stack.core.types.builtin.StatusCode;

/** How the assertions write a status code in a failure message: its symbolic name and its 32 bits. */
final class StatusNames {

    private StatusNames() {
    }

    static String describe(StatusCode status) {
        return status == null ? "null" : status.toString();
    }

    static String describe(int code) {
        return describe(StatusCode.of(code));
    }
}
