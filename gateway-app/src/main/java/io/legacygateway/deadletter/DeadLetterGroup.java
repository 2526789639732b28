package io.legacygateway.deadletter;

import java.time.Instant;

/**
 * Dead letters that share queue, reason class, reason and event type.
 *
 * @param applied how many of them the consumer's inbox has applied already (a replay would be skipped)
 * @param oldest  earliest {@link DeadLetter#deadLetteredAt()}
 * @param newest  latest {@link DeadLetter#deadLetteredAt()}
 */
public record DeadLetterGroup(String queue, String reasonClass, String reason, String eventType, int count,
                              int applied, Instant oldest, Instant newest) {
}
