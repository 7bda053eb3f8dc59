package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * A value estimated at a boundary timestamp (Part 13, 3.1.7).
 *
 * @param value the value; {@link Variant#NULL} when none was found
 * @param status its status: the raw status for a raw value, else Good, Uncertain_DataSubNormal or Bad_NoData
 * @param raw whether a raw value exists at the timestamp and is the bound
 * @param extrapolated whether the bound lies after the end of data and was extrapolated
 */
record BoundingValue(Variant value, StatusCode status, boolean raw, boolean extrapolated) {

    static final BoundingValue NO_DATA =
            new BoundingValue(Variant.NULL, StatusCode.of(StatusCodes.BadNoData), false, false);

    boolean found() {
        return !status.isBad();
    }

    /** The historian bits the bound carries: none for a raw value, Interpolated for an estimate. */
    int bits() {
        return raw || !found() ? HistorianBits.RAW : HistorianBits.INTERPOLATED;
    }
}
