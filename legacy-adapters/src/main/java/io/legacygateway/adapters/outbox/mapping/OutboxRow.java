package io.legacygateway.adapters.outbox.mapping;

import java.time.Instant;

/**
 * One claimed outbox row as read from the table, before any validation: values may be missing or malformed, which the
 * relay reports as a rejection rather than an exception.
 *
 * @param key          the unique row key, as the driver returned it (bound back unchanged to mark the row)
 * @param keyText      the key as text, as the database renders it (recorded with a rejection)
 * @param order        the ordering value (a {@link ColumnKind#readComparable comparable} of the order column)
 * @param eventVersion the raw version value (number or text), {@code null} when absent or unmapped
 * @param retryCount   failed attempts so far, 0 when unmapped
 * @param problem      why a value could not be converted (for example a binary payload that is not UTF-8), else
 *                     {@code null}; such a row is rejected with this reason
 */
public record OutboxRow(Object key, String keyText, Object order, String eventId, String aggregateType,
                        String aggregateId, String eventType, Object eventVersion, String payload, Instant occurredAt,
                        Instant createdAt, String correlationId, String causationId, String trace, int retryCount,
                        String problem) {

    /** The same row with its failed attempts as the gateway's own table counts them. */
    public OutboxRow withRetryCount(int attempts) {
        return attempts == retryCount ? this : new OutboxRow(key, keyText, order, eventId, aggregateType, aggregateId,
                eventType, eventVersion, payload, occurredAt, createdAt, correlationId, causationId, trace, attempts,
                problem);
    }

    /** A row read without conversion problems, its key text being the key's string form (tests, fixtures). */
    public OutboxRow(Object key, Object order, String eventId, String aggregateType, String aggregateId,
                     String eventType, Object eventVersion, String payload, Instant occurredAt, Instant createdAt,
                     String correlationId, String causationId, String trace, int retryCount) {
        this(key, String.valueOf(key), order, eventId, aggregateType, aggregateId, eventType, eventVersion, payload,
                occurredAt, createdAt, correlationId, causationId, trace, retryCount, null);
    }
}
