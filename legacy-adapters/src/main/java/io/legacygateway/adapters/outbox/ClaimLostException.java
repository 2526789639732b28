package io.legacygateway.adapters.outbox;

/**
 * The cycle's claim may no longer hold its rows: the database ended the cycle's session (its claim lease ran out, or
 * an operator killed it), or the lease has run out since the session last answered. Another relay may have claimed
 * and published the rows meanwhile, so the cycle must commit nothing on the broker; it rolls back as an outage of its
 * relay and charges no row.
 */
public final class ClaimLostException extends RuntimeException {

    public ClaimLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
