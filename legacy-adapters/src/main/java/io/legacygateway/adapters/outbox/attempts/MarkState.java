package io.legacygateway.adapters.outbox.attempts;

/** What the cycle's mark did with the row. */
public enum MarkState {
    /** The cycle never ended: the process died, or the mark is still running. */
    NONE,
    /** Marked published in a committed cycle. */
    PUBLISHED,
    /** Charged a failed attempt; waits for its next retry. */
    RETRY,
    /** Parked as FAILED. */
    FAILED,
    /** Left as it was (not published, not charged). */
    UNCHANGED,
    /** The cycle's transaction rolled back: no mark. */
    ROLLED_BACK
}
