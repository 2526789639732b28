package io.legacygateway.deadletter;

/**
 * What a redelivery does with dead letters whose event the consumer's inbox has already applied (a dead letter can
 * be applied when it failed after its database commit, or when a copy of it was applied earlier).
 */
public enum InboxPolicy {
    /**
     * The default: applied dead letters are not redelivered. They stay in the dead-letter queue, or are removed from
     * it when the request sets {@code discardApplied} (consumed without a copy; audited). The others are redelivered.
     */
    SKIP_APPLIED,
    /**
     * Redeliver every selected dead letter. The consumer's inbox skips the applied ones as duplicates (and counts
     * them in {@code gateway_inbox_duplicates_total}): their effect stays applied once.
     */
    REDELIVER_ALL,
    /**
     * Delete the inbox row of each applied dead letter in the consumer's database (audited as
     * {@code dlq.release-inbox}), then redeliver it: its effect is applied AGAIN. For effects that must run once more
     * (the first run was wrong, and was undone by hand). Refused for consumers with the sequence gate, which would
     * dead-letter the replay as a sequence conflict.
     */
    RELEASE_INBOX_AND_REDELIVER
}
