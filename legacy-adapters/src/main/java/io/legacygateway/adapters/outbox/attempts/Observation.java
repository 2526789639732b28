package io.legacygateway.adapters.outbox.attempts;

/** What the relay learned from the broker about one row's attempt. */
public enum Observation {
    /** Handed to the broker; no answer recorded (the cycle is running, or died): it may have been delivered. */
    SENT,
    /** The broker stored it (or already held it, by its duplicate-detection id, from an earlier send of this row). */
    CONFIRMED,
    /**
     * The broker already held this event (same duplicate-detection id: same event id and content) and the relay has
     * no record of sending it: the row was marked published, but what consumers got came from elsewhere (a
     * restored or reloaded outbox, another relay or table, attempts pruned or not logged).
     */
    DUPLICATE,
    /** The broker refused this event (charged as a failed attempt). */
    REFUSED,
    /** Not sent: an earlier event of its aggregate was refused in the same batch. */
    DEFERRED,
    /** The batch failed as a whole (broker or connection) before its commit was asked: nothing of it was delivered. */
    FAILED,
    /**
     * The broker's commit of the batch failed without an answer (the connection lost during the commit, the broker
     * killed or failed over): the broker may have stored any of it. The rows are not charged an attempt and are
     * sent again; the broker drops the copies it holds, which this attempt explains (no unexplained duplicate).
     */
    OUTCOME_UNKNOWN,
    /** The row could not become an event; nothing was sent. */
    NOT_SENT,
    /** A step of the relay dropped the event (the detail says why): nothing was sent, the row was marked done. */
    FILTERED;

    /** Whether an attempt with this observation may have put the event on the broker. */
    public boolean mayHaveDelivered() {
        return this == SENT || this == CONFIRMED || this == OUTCOME_UNKNOWN;
    }
}
