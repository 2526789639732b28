package io.legacygateway.inbox;

/**
 * The inbox's database could not be reached (no connection, connection lost). The route retries the message in the
 * same JMS transaction with backoff instead of returning it to the broker, so an outage burns no delivery attempts.
 */
public class TargetDatabaseUnavailableException extends RuntimeException {

    public TargetDatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
