package dev.opcua.stack.server.requests;

import dev.opcua.stack.core.config.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;

/**
 * Limits of the request pipeline, the {@code requests.*} options of the design (the .NET stack's
 * MaxQueuedRequestCount, MinRequestThreadCount and MaxRequestThreadCount).
 *
 * @param minThreads workers kept when idle (platform threads only); default 10
 * @param maxThreads most workers, and with virtual threads the most requests running at once; default 100
 * @param maxQueued ordinary requests that may wait for a worker; default 200
 * @param maxPriorityQueued requests that may wait in the priority lane, in addition; default 20
 * @param workerKeepAlive how long a worker above {@code minThreads} waits idle before it ends; default 60 s
 * @param maxRequestAge a request that waited longer is answered with BadTimeout instead of run; default 10 min
 * @param virtualThreads whether each worker is a virtual thread (Java 21+; on older runtimes a warning
 *        and platform threads); default false
 * @param shutdownTimeout how long {@link RequestWorkerPool#close()} lets running requests finish; default 5 s
 * @param inlineWhenIdle whether a small request of a service that allows it (Read and Write while every
 *        node manager is non-blocking) runs on the event loop that received it when no request waits in
 *        either lane, instead of being handed to a worker and back; default true. The queue's order and
 *        bounds are untouched: a request runs inline only when it would have been first in line.
 * @param maxRunningPerSession workers one session (or one channel, before its session) may hold at once;
 *        its further requests wait in its FIFO of the queue, and past the queue's bound are refused with
 *        BadServerTooBusy, so that a flooding session cannot make every worker compete with the event
 *        loops for the cores; 0 = no bound (the default)
 * @param maxRequestsPerRead with {@code inlineWhenIdle}: small requests (those that may run inline) one
 *        connection may have served per socket read while it sends more than the server reads; when two
 *        reads in a row bring more, the rest of the second is answered BadServerTooBusy at once (a burst
 *        that fits one read is served whole); default 128, 0 = no bound
 */
public record RequestPoolSettings(int minThreads, int maxThreads, int maxQueued, int maxPriorityQueued,
        Duration workerKeepAlive, Duration maxRequestAge, boolean virtualThreads, Duration shutdownTimeout,
        boolean inlineWhenIdle, int maxRunningPerSession, int maxRequestsPerRead) {

    /** The default of {@link #maxRequestsPerRead()}. */
    public static final int DEFAULT_MAX_REQUESTS_PER_READ = 128;

    public static final RequestPoolSettings DEFAULT = new RequestPoolSettings(10, 100, 200, 20,
            Duration.ofSeconds(60), Duration.ofMinutes(10), false, Duration.ofSeconds(5), true, 0,
            DEFAULT_MAX_REQUESTS_PER_READ);

    /** Settings with the default bounds per session and per read. */
    public RequestPoolSettings(int minThreads, int maxThreads, int maxQueued, int maxPriorityQueued,
            Duration workerKeepAlive, Duration maxRequestAge, boolean virtualThreads, Duration shutdownTimeout,
            boolean inlineWhenIdle) {
        this(minThreads, maxThreads, maxQueued, maxPriorityQueued, workerKeepAlive, maxRequestAge, virtualThreads,
                shutdownTimeout, inlineWhenIdle, 0, DEFAULT_MAX_REQUESTS_PER_READ);
    }

    /** Settings with {@code inlineWhenIdle} at its default, true. */
    public RequestPoolSettings(int minThreads, int maxThreads, int maxQueued, int maxPriorityQueued,
            Duration workerKeepAlive, Duration maxRequestAge, boolean virtualThreads, Duration shutdownTimeout) {
        this(minThreads, maxThreads, maxQueued, maxPriorityQueued, workerKeepAlive, maxRequestAge, virtualThreads,
                shutdownTimeout, true, 0, DEFAULT_MAX_REQUESTS_PER_READ);
    }

    /** These settings with {@code inlineWhenIdle} set to {@code value}. */
    public RequestPoolSettings withInlineWhenIdle(boolean value) {
        return new RequestPoolSettings(minThreads, maxThreads, maxQueued, maxPriorityQueued, workerKeepAlive,
                maxRequestAge, virtualThreads, shutdownTimeout, value, maxRunningPerSession, maxRequestsPerRead);
    }

    /** These settings with {@code maxRunningPerSession} set to {@code value} (0 = no bound). */
    public RequestPoolSettings withMaxRunningPerSession(int value) {
        return new RequestPoolSettings(minThreads, maxThreads, maxQueued, maxPriorityQueued, workerKeepAlive,
                maxRequestAge, virtualThreads, shutdownTimeout, inlineWhenIdle, value, maxRequestsPerRead);
    }

    /** These settings with {@code maxRequestsPerRead} set to {@code value} (0 = no bound). */
    public RequestPoolSettings withMaxRequestsPerRead(int value) {
        return new RequestPoolSettings(minThreads, maxThreads, maxQueued, maxPriorityQueued, workerKeepAlive,
                maxRequestAge, virtualThreads, shutdownTimeout, inlineWhenIdle, maxRunningPerSession, value);
    }

    /**
     * @throws InvalidSettingException {@code requestPoolSettings.<component>} unless 0 <= minThreads <=
     *         maxThreads, maxThreads >= 1, maxQueued >= 1, maxPriorityQueued >= 0, maxRunningPerSession >= 0,
     *         maxRequestsPerRead >= 0 and the durations are positive (shutdownTimeout: not negative)
     */
    public RequestPoolSettings {
        Objects.requireNonNull(workerKeepAlive, "workerKeepAlive");
        Objects.requireNonNull(maxRequestAge, "maxRequestAge");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
        if (minThreads < 0) {
            throw invalid("minThreads", minThreads, "must not be negative");
        }
        if (maxThreads < 1) {
            throw invalid("maxThreads", maxThreads, "must be at least 1");
        }
        if (maxThreads < minThreads) {
            throw invalid("maxThreads", maxThreads, "must be at least minThreads (" + minThreads + ")");
        }
        if (maxQueued < 1) {
            throw invalid("maxQueued", maxQueued, "must be at least 1");
        }
        if (maxPriorityQueued < 0) {
            throw invalid("maxPriorityQueued", maxPriorityQueued, "must not be negative");
        }
        if (maxRequestsPerRead < 0) {
            throw invalid("maxRequestsPerRead", maxRequestsPerRead, "must not be negative (0 = no bound)");
        }
        if (maxRunningPerSession < 0) {
            throw invalid("maxRunningPerSession", maxRunningPerSession, "must not be negative (0 = no bound)");
        }
        if (workerKeepAlive.isNegative() || workerKeepAlive.isZero()) {
            throw invalid("workerKeepAlive", workerKeepAlive, "must be positive");
        }
        if (maxRequestAge.isNegative() || maxRequestAge.isZero()) {
            throw invalid("maxRequestAge", maxRequestAge, "must be positive");
        }
        if (shutdownTimeout.isNegative()) {
            throw invalid("shutdownTimeout", shutdownTimeout, "must not be negative");
        }
    }

    private static InvalidSettingException invalid(String name, Object value, String rule) {
        return new InvalidSettingException("requestPoolSettings." + name, value, rule);
    }
}
