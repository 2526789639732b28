package io.legacygateway.inbox;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logger a consumer's lines are written under: {@code io.legacygateway.inbox.InboxConsumer}, the name operators'
 * logging configuration knows (applied messages at DEBUG, dead letters, rollbacks, outages); the steps and decisions
 * that write them name this class, not the consumer.
 */
final class InboxLog {

    static final Logger CONSUMER = LoggerFactory.getLogger("io.legacygateway.inbox.InboxConsumer");

    private InboxLog() {
    }
}
