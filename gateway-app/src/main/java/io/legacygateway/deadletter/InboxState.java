package io.legacygateway.deadletter;

/** What the consumer's inbox says about a dead letter's event. */
public enum InboxState {
    /** The inbox has (event id, consumer): the effect was applied; a replay would be skipped as a duplicate. */
    APPLIED,
    /** The inbox has no row for it: a replay applies the effect. */
    NOT_APPLIED,
    /** No inbox consumer of this gateway takes it (another gateway's consumer, or a queue without an inbox). */
    NO_INBOX_CONSUMER,
    /** The message carries no event id (not an envelope): the inbox cannot know it. */
    NO_EVENT_ID,
    /** The inbox could not be read (database error); see the detail. */
    UNAVAILABLE
}
