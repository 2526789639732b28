package io.legacygateway.deadletter;

/** What a redelivery did (or, in a dry run, would do) with one selected dead letter. */
public enum RedeliveryOutcome {
    /** Sent to its original queue and removed from the dead-letter queue, in one JMS transaction. */
    MOVED,
    /** Applied already (policy {@link InboxPolicy#SKIP_APPLIED}): left on the dead-letter queue. */
    SKIPPED_APPLIED,
    /** Applied already, {@code discardApplied} set: removed from the dead-letter queue without a copy. */
    DISCARDED_APPLIED,
    /** Dead-lettered longer ago than {@code gateway.dead-letters.replay-horizon}, and {@code force} not set. */
    REFUSED_OLDER_THAN_HORIZON,
    /** No {@code _AMQ_ORIG_ADDRESS}, or the original queue no longer exists: nowhere to send it. */
    REFUSED_NO_ORIGINAL_QUEUE,
    /** Policy RELEASE for a consumer with the sequence gate: the replay would only be a sequence conflict. */
    REFUSED_SEQUENCE_GATE,
    /** No longer on the dead-letter queue when its turn came (someone else moved or deleted it). */
    GONE,
    /** The move failed and was rolled back: the dead letter is still on its queue, no copy was sent. */
    FAILED,
    /** The run stopped (after a failure, or interrupted) before this one. */
    NOT_ATTEMPTED
}
