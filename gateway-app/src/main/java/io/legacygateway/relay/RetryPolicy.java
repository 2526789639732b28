package io.legacygateway.relay;

import java.time.Duration;
import java.time.Instant;

/**
 * How often and when a relay attempts a row again whose publication failed (the broker refused it, or it could not
 * become an event): after failed attempt {@code n} the row waits {@code retryBackoff × 2^(n-1)}, at most
 * {@code maxRetryBackoff}, times a jitter factor in [0.8, 1.2); once {@code maxAttempts} attempts have failed it is
 * parked as FAILED. A broker outage is not an attempt: it charges no row.
 *
 * @param maxAttempts attempts before a row is parked (1: park at the first failure)
 * @param backoff     the wait after the first failed attempt
 * @param maxBackoff  the longest wait
 */
public record RetryPolicy(int maxAttempts, Duration backoff, Duration maxBackoff) {

    /** Spread of the jitter around the computed wait: ±20 %. */
    static final double JITTER = 0.2;

    /**
     * @param failedAttempts attempts that have failed, this one included
     * @param jitter         a value in [0, 1): 0.5 gives the computed wait exactly
     * @return when the row is due again, or {@code null} when it is parked as FAILED
     */
    public Instant nextAttempt(int failedAttempts, Instant now, double jitter) {
        if (failedAttempts >= maxAttempts) {
            return null;
        }
        long max = maxBackoff.toMillis();
        int doublings = Math.max(0, Math.min(failedAttempts - 1, 40));
        double wait = Math.min((double) backoff.toMillis() * Math.pow(2, doublings), max);
        double factor = 1 - JITTER + 2 * JITTER * Math.max(0, Math.min(jitter, 1));
        return now.plusMillis(Math.min(max, Math.round(wait * factor)));
    }

    /** Whether a row is attempted more than once. */
    public boolean retries() {
        return maxAttempts > 1;
    }
}
