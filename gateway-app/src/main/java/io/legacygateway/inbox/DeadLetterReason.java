package io.legacygateway.inbox;

/**
 * Why an inbox consumer moved a message to the dead-letter address; the value of the {@code gw_dlq_reason_class}
 * property. All but {@link #RETRIES_EXHAUSTED} are decided on the first delivery: the same bytes would fail the same
 * way again.
 */
public enum DeadLetterReason {
    /** Not a text or bytes message (for example an ObjectMessage, which is never deserialised). */
    UNSUPPORTED_MESSAGE,
    /** The body is larger than the consumer's {@code maxPayloadBytes}. */
    PAYLOAD_TOO_LARGE,
    /** Not JSON, not UTF-8, a missing or malformed CloudEvents attribute, or a value the effect needs is missing. */
    MALFORMED_ENVELOPE,
    /** A type or version this consumer does not accept ({@code accept}). */
    UNKNOWN_TYPE,
    /**
     * The effect refused the event: {@link BusinessRuleViolationException}, or an SQL effect with
     * {@code requireRows} changed nothing.
     */
    BUSINESS_RULE,
    /**
     * An {@code upcast.<Type>.<version>} step threw for the event, or its value was not JSON data: the same data
     * would fail the same way again.
     */
    UPCAST_FAILED,
    /**
     * The database refused a statement of the message's effect for its data (SQLSTATE class 22 data exception: a value
     * too long or out of range, a NUL character in PostgreSQL text; 23 integrity constraint violation: NOT NULL, CHECK,
     * unique, foreign key; 09, 27, 44, 45 and PostgreSQL's P0: a trigger's refusal). Decided as the relay decides for
     * its rows.
     */
    DATA_REFUSED,
    /**
     * Applying the message lost the database connection {@code FailureDecisions.MAX_CONNECTION_LOSSES} times in a row
     * while a new connection to the database worked each time, and it did so alone in its transaction: for example a
     * value larger than MariaDB's {@code max_allowed_packet}, on which the server closes the connection.
     */
    DROPS_CONNECTION,
    /** Sequence gate: the sequence was applied already, or another message is parked at it. */
    SEQUENCE_CONFLICT,
    /** A failure that may pass (lock timeout, deadlock, an unexpected error) lasted until the last allowed delivery. */
    RETRIES_EXHAUSTED
}
