package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * Charges a row that failed on its own one attempt: it waits for its next retry ({@link RetryPolicy}, with jitter) or,
 * after {@code maxAttempts}, is parked as FAILED; and words the log line that says which.
 */
final class FailedAttempts {

    private static final Logger log = RelayLog.RELAY;

    private final RelaySettings settings;
    private final RetryJitter jitter;

    FailedAttempts(RelaySettings settings, RetryJitter jitter) {
        this.settings = settings;
        this.jitter = jitter;
    }

    /** The failure of {@code row}'s next attempt, at {@code now}, for {@code reason}. */
    OutboxFailure charge(OutboxRow row, String reason, Instant now) {
        int attempts = row.retryCount() + 1;
        return new OutboxFailure(row, reason, attempts, settings.retry().nextAttempt(attempts, now, jitter.next()));
    }

    /** Whether a FAILED row holds back the later rows of its aggregate ({@code failedRowPolicy BLOCK_AGGREGATE}). */
    boolean blocksAggregate() {
        return settings.failedRowPolicy() == FailedRowPolicy.BLOCK_AGGREGATE;
    }

    /** Logs the charged failure at WARN: parked, or when its next attempt is due. */
    void log(OutboxFailure f) {
        if (f.parked()) {
            log.warn("Relay '{}': row {} of {} (event {}) parked as FAILED after {} attempt(s){}: {}", settings.relay(),
                    f.row().keyText(), settings.table(), f.row().eventId(), f.attempts(),
                    blocksAggregate() ? "; its aggregate " + f.row().aggregateId() + " waits until it is retried" : "",
                    f.reason());
        } else {
            log.warn("Relay '{}': row {} of {} (event {}) failed attempt {} of {}, next attempt at {}: {}",
                    settings.relay(), f.row().keyText(), settings.table(), f.row().eventId(), f.attempts(),
                    settings.retry().maxAttempts(), f.nextRetryAt(), f.reason());
        }
    }
}
