package io.legacygateway.relay;

/**
 * The broker could not be reached, or the connection was lost, while a batch was sent: an outage, not a refusal of one
 * event. Nothing of the batch may be marked published and no row is charged an attempt; the rows stay pending and the
 * relay backs off as a whole.
 *
 * <p>{@link #outcomeUnknown()}: a commit of the batch was asked and failed without the broker's answer (the
 * connection lost during it, the broker killed, a failover), so the broker may have stored any of it. The relay records
 * that as may-have-delivered, so that the broker's duplicates of the resend are explained.
 */
public class PublishException extends RuntimeException {

    private final boolean outcomeUnknown;

    public PublishException(String message, Throwable cause) {
        this(message, cause, false);
    }

    public PublishException(String message, Throwable cause, boolean outcomeUnknown) {
        super(message, cause);
        this.outcomeUnknown = outcomeUnknown;
    }

    /** Whether a commit of the batch failed without an answer: the broker may have stored any of the batch. */
    public boolean outcomeUnknown() {
        return outcomeUnknown;
    }
}
