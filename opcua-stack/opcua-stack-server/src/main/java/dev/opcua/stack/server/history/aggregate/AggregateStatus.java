package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.ids.StatusCodes;

/**
 * The StatusCode calculation of Part 13, 5.4.3.2: the share of Bad data in an interval, by count of values
 * (PercentValues, for aggregates of raw values) or by duration of regions (PercentTime, for time-weighted ones),
 * is compared to PercentDataBad and the share of Good data to PercentDataGood; an interval that meets neither is
 * Uncertain_DataSubNormal. Uncertain data counts as Good for the ratios unless TreatUncertainAsBad, but a result
 * that used Uncertain data is still Uncertain.
 */
final class AggregateStatus {

    private AggregateStatus() {
    }

    /**
     * @param good amount (values or ticks) of usable data
     * @param bad amount of data left out as Bad
     * @param uncertainUsed whether usable data included Uncertain values or estimates
     * @return Good, Bad or Uncertain_DataSubNormal, without historian bits
     */
    static int of(long good, long bad, boolean uncertainUsed, AggregateConfiguration config) {
        long total = good + bad;
        if (bad > 0 && 100.0 * bad / total >= config.percentDataBad()) {
            return StatusCodes.Bad;
        }
        if (bad == 0 || 100.0 * good / total >= config.percentDataGood()) {
            return uncertainUsed ? StatusCodes.UncertainDataSubNormal : StatusCodes.Good;
        }
        return StatusCodes.UncertainDataSubNormal;
    }
}
