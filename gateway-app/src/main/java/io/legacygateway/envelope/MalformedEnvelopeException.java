package io.legacygateway.envelope;

/** A message that is not a valid envelope of a known version. Not retryable: the same bytes fail the same way. */
public class MalformedEnvelopeException extends Exception {
    public MalformedEnvelopeException(String reason) {
        super(reason);
    }

    public MalformedEnvelopeException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
