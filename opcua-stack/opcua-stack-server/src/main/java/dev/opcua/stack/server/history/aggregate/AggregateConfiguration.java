package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.types.builtin.StatusCode;

/**
 * How an aggregate treats non-Good data (Part 13, 4.2.1.2, AggregateConfigurationType).
 *
 * @param treatUncertainAsBad whether Uncertain values count as Bad (skipped in calculations, Bad regions in the
 *        status calculation); otherwise they count as Good for the ratios but still make a result Uncertain
 * @param percentDataBad minimum percentage (0..100) of Bad data in an interval that makes its result Bad
 * @param percentDataGood minimum percentage (0..100) of Good data in an interval that makes its result Good
 * @param useSlopedExtrapolation whether values after the end of data are extrapolated along the slope of the
 *        last two values rather than held (stepped)
 */
public record AggregateConfiguration(boolean treatUncertainAsBad, int percentDataBad, int percentDataGood,
        boolean useSlopedExtrapolation) {

    /** The server's defaults, those of the OPC Foundation's reference server: a single Bad value cannot taint an interval Bad. */
    public static final AggregateConfiguration DEFAULT = new AggregateConfiguration(true, 100, 100, false);

    public AggregateConfiguration {
        if (percentDataBad < 0 || percentDataBad > 100 || percentDataGood < 0 || percentDataGood > 100) {
            throw new IllegalArgumentException("PercentDataBad and PercentDataGood must be 0..100, were "
                    + percentDataBad + " and " + percentDataGood);
        }
    }

    /**
     * Whether PercentDataGood >= 100 - PercentDataBad (Part 13, 4.2.1.2): Good and Bad ratios add up to 100, so
     * lower thresholds would let one interval be both (where they meet, Bad is checked first). A client's
     * configuration that fails this is answered with Bad_AggregateConfigurationRejected.
     */
    public boolean isConsistent() {
        return percentDataBad + percentDataGood >= 100;
    }

    /** Whether a value with this status takes part in a calculation: not Bad, and not Uncertain when that counts as Bad. */
    public boolean isUsable(StatusCode status) {
        return !status.isBad() && !(treatUncertainAsBad && status.isUncertain());
    }
}
