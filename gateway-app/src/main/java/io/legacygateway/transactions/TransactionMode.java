package io.legacygateway.transactions;

/**
 * How a relay's cycle binds its database work and its broker work together.
 */
public enum TransactionMode {
    /**
     * Two local transactions, the broker's committed first: at-least-once, a crash between the two commits sends the
     * batch again and the broker's duplicate detection drops the copies.
     */
    LOCAL,
    /**
     * One global (JTA) transaction with a branch on the database and one on the broker, committed in two phases by
     * Narayana: the broker's copy and the row's mark commit together or not at all, also across a crash (recovery).
     */
    XA
}
