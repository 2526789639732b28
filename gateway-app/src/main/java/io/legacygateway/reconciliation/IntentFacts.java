package io.legacygateway.reconciliation;

import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import java.time.Instant;
import java.util.List;

/**
 * What the gateway knows about one intent, read from the outbox, the attempt log and (where configured) the domain
 * table: the input of {@link IntentClassifier}.
 *
 * @param createdAt       the row's created-at (else occurred-at) time, {@code null} when unknown
 * @param attemptsOnRow   failed attempts the outbox (or the rejection log) counts
 * @param lastError       the reason of the last failed attempt, if any
 * @param attemptLogOn    whether the relay records attempts
 * @param attempts        the recorded attempts, oldest first
 */
public record IntentFacts(String relay, String rowKey, String eventId, String aggregateKey, DomainState domain,
                          String domainTable, OutboxState outbox, Instant createdAt, int attemptsOnRow,
                          String lastError, boolean attemptLogOn, List<AttemptLog.Entry> attempts) {

    /** Whether the domain row behind the intent was seen. */
    public enum DomainState {
        /** Found in the configured domain table. */
        COMMITTED,
        /** Not in the configured domain table (deleted since, or never there). */
        NOT_FOUND,
        /** No domain table configured: the intent's own commit is the evidence. */
        NOT_CHECKED
    }

    /** Where the intent stands in the outbox. */
    public enum OutboxState {
        /** Waiting for its first attempt. */
        PENDING,
        /** Waiting for another attempt after failed ones. */
        RETRYING,
        /** Parked with its reason. */
        FAILED,
        /** No longer waiting: marked published. */
        PUBLISHED,
        /** No intent row at all (a domain row without one). */
        MISSING
    }
}
