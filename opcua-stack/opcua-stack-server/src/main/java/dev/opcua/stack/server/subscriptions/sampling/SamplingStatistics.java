package dev.opcua.stack.server.subscriptions.sampling;

/**
 * What a {@link SamplingScheduler} has done since it started: the numbers that tell whether the
 * best-effort sampling rate of Part 4, 5.12.1.2 is kept.
 *
 * @param ticks group ticks run (one per group and deadline, made-up ticks and restarts included)
 * @param lateTicks ticks that ran one interval or more after their deadline: made up after a late wake-up
 * @param restarts times a group lagged more than three intervals (a long pause, a sampler slower than
 *     its interval) and restarted its timeline from the current time instead of making the missed ticks up
 * @param maxLatenessNanos the largest delay seen between a tick's deadline and its start
 * @param samplerFailures sampler calls that threw (logged, rate-limited; sampling went on)
 */
public record SamplingStatistics(long ticks, long lateTicks, long restarts, long maxLatenessNanos, long samplerFailures) {
}
