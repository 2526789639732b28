package io.legacygateway.inbox;

/** What the inbox transaction of one delivery did. */
public enum InboxOutcome {
    /** First delivery: inbox row and effect committed together. */
    APPLIED,
    /** The inbox row was there: the effect was applied by an earlier delivery and was not applied again. */
    DUPLICATE,
    /** Sequence gate: the message came ahead of its turn and was stored until the gap before it is filled. */
    PARKED
}
