package io.legacygateway.relay;

/** What runs a cycle besides the timer at {@code pollInterval}, which keeps running as the safety net. */
public enum WakeUp {
    /** Nothing: rows are claimed at the next poll. */
    NONE,
    /**
     * PostgreSQL: the relay listens on its table's channel ({@code triggers --notify} installs the trigger that
     * signals it) and runs a cycle as soon as a notification arrives.
     */
    NOTIFY
}
