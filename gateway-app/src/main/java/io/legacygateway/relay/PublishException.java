package io.legacygateway.relay;

/**
 * The broker could not be reached, or the connection was lost, while a batch was sent: an outage, not a refusal of one
 * event. Nothing of the batch may be marked published and no row is charged an attempt; the rows stay pending and the
 * relay backs off as a whole.
 */
public class PublishException extends RuntimeException {
    public PublishException(String message, Throwable cause) {
        super(message, cause);
    }
}
