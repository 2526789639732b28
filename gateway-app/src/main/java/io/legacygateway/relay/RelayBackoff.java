package io.legacygateway.relay;

import io.legacygateway.adapters.Failures;
import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * How long a relay waits after cycles that rolled back: {@code pollInterval}, doubled with each consecutive failure up
 * to {@code maxBackoff}; no wait once a drain succeeds. Logs the first failure with its stack trace, then each change
 * of reason and every 20th repetition, and the recovery. Used by one drain at a time.
 */
final class RelayBackoff {

    private static final Logger log = RelayLog.RELAY;

    private final RelaySettings settings;
    private final Clock clock;
    private int consecutiveFailures;
    private Instant nextAttempt = Instant.MIN;
    private String lastFailure;

    RelayBackoff(RelaySettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** Whether the backoff after the last failure is still running. */
    boolean waiting() {
        return clock.instant().isBefore(nextAttempt);
    }

    /** A cycle rolled back with {@code e} (an exception, or an {@link Error} such as OutOfMemoryError): the next waits longer. */
    void failed(Throwable e) {
        consecutiveFailures++;
        long backoff = Math.min(settings.maxBackoff().toMillis(),
                settings.pollInterval().toMillis() << Math.min(consecutiveFailures - 1, 16));
        nextAttempt = clock.instant().plusMillis(backoff);
        String reason = Failures.describe(e);
        if (!reason.equals(lastFailure) || consecutiveFailures % 20 == 1) {
            log.warn("Relay '{}': cycle rolled back, rows stay pending and no row is charged (attempt {} failed, next"
                            + " in {} ms): {}", settings.relay(), consecutiveFailures, backoff, reason,
                    consecutiveFailures == 1 ? e : null);
        }
        lastFailure = reason;
    }

    /** A drain ended without failure: no wait. */
    void recovered() {
        if (consecutiveFailures > 0) {
            log.info("Relay '{}': working again after {} failed attempts", settings.relay(), consecutiveFailures);
        }
        consecutiveFailures = 0;
        lastFailure = null;
        nextAttempt = Instant.MIN;
    }
}
