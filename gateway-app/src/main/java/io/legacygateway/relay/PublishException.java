package io.legacygateway.relay;

/** The broker did not confirm a batch. Nothing of it may be marked published; the rows stay pending. */
public class PublishException extends RuntimeException {
    public PublishException(String message, Throwable cause) {
        super(message, cause);
    }
}
