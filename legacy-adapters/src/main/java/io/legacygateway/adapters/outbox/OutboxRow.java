package io.legacygateway.adapters.outbox;

import java.time.Instant;

/**
 * One claimed outbox row as read from the table, before any validation: values may be missing or malformed, which the
 * relay reports as a rejection rather than an exception.
 *
 * @param key          the unique row key, as the driver returned it (bound back unchanged to mark the row)
 * @param order        the ordering value, as the driver returned it
 * @param eventVersion the raw version value (number or text), {@code null} when absent or unmapped
 * @param retryCount   failed attempts so far, 0 when unmapped
 */
public record OutboxRow(Object key, Object order, String eventId, String aggregateType, String aggregateId,
                        String eventType, Object eventVersion, String payload, Instant occurredAt, Instant createdAt,
                        String correlationId, String causationId, String trace, int retryCount) {
}
