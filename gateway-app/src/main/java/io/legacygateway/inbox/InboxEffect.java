package io.legacygateway.inbox;

import io.legacygateway.envelope.EventEnvelope;

/**
 * What applying one event means for the consumer's database. Runs inside the inbox's database transaction, on the
 * thread that holds it, after the inbox row was inserted: everything it writes through the inbox's datasource commits
 * or rolls back with that row.
 *
 * <p>To refuse an event for a business reason throw {@link BusinessRuleViolationException} (dead-lettered at once);
 * any other exception rolls back and the message is retried. Work outside the transaction (HTTP calls, e-mails) is not
 * covered: it may happen again when a delivery is retried, so it must be idempotent itself.
 */
public interface InboxEffect {

    void apply(EventEnvelope envelope);
}
