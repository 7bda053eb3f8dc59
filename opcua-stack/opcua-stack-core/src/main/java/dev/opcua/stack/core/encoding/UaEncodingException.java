package dev.opcua.stack.core.encoding;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;

/**
 * A value could not be encoded or decoded: {@code BadDecodingError} for malformed input,
 * {@code BadEncodingLimitsExceeded} for input beyond the {@link EncodingLimits}, {@code BadEncodingError}
 * for a value that cannot be encoded. The message names the field (as a path from the outermost
 * structure) and, for limits, the limit.
 */
public final class UaEncodingException extends UaException {

    private static final long serialVersionUID = 1L;

    public UaEncodingException(int statusCode, String message) {
        super(StatusCode.of(statusCode), message, null);
    }

    public UaEncodingException(int statusCode, String message, Throwable cause) {
        super(StatusCode.of(statusCode), message, cause);
    }

    public static UaEncodingException decodingError(String message) {
        return new UaEncodingException(StatusCodes.BadDecodingError, message);
    }

    public static UaEncodingException limitExceeded(String message) {
        return new UaEncodingException(StatusCodes.BadEncodingLimitsExceeded, message);
    }

    public static UaEncodingException encodingError(String message) {
        return new UaEncodingException(StatusCodes.BadEncodingError, message);
    }
}
