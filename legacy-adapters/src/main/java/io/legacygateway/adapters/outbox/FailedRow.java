package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import java.time.Instant;

/**
 * A row parked as FAILED, as an operator sees it.
 *
 * @param reason   the reason of its last failed attempt
 * @param attempts failed attempts
 * @param failedAt when it was parked, where the gateway records it ({@code null} when only the row knows it failed)
 */
public record FailedRow(OutboxRow row, String reason, int attempts, Instant failedAt) {
}
