package io.legacygateway.inbox;

/**
 * Thrown by an effect (a Camel route or bean named in {@code effectEndpoint}) to refuse an event for a business reason:
 * the event is valid but must not be applied, for example a payment for an unknown order. The inbox rolls the effect's
 * transaction back and dead-letters the message on its first delivery, with this message as the reason; it is never
 * retried. Any other exception counts as a failure that may pass and is retried.
 */
public class BusinessRuleViolationException extends RuntimeException {

    public BusinessRuleViolationException(String reason) {
        super(reason);
    }
}
