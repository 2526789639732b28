package io.legacygateway.inbox;

/**
 * The message in hand must go to the dead-letter address now, with this reason. Thrown inside the inbox's database
 * transaction it also rolls that transaction back, so nothing of the message is applied.
 */
public class DeadLetterException extends RuntimeException {

    private final DeadLetterReason reason;

    public DeadLetterException(DeadLetterReason reason, String detail) {
        this(reason, detail, null);
    }

    public DeadLetterException(DeadLetterReason reason, String detail, Throwable cause) {
        super(detail, cause);
        this.reason = reason;
    }

    public DeadLetterReason reason() {
        return reason;
    }
}
