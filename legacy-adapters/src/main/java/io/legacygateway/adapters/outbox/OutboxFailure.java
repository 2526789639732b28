package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import java.time.Instant;

/**
 * One failed attempt at a claimed row, as the relay decided it: the row stays waiting until {@code nextRetryAt}, or is
 * parked as FAILED when {@code nextRetryAt} is {@code null} (its attempts reached the relay's maximum).
 *
 * @param reason   why this attempt failed (the row could not become an event, or the broker refused it)
 * @param attempts failed attempts including this one
 */
public record OutboxFailure(OutboxRow row, String reason, int attempts, Instant nextRetryAt) {

    /** Whether the row is parked as FAILED by this failure. */
    public boolean parked() {
        return nextRetryAt == null;
    }
}
