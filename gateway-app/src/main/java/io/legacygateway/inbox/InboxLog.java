package io.legacygateway.inbox;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loggers a consumer's lines are written under, by the names operators' logging configuration knows:
 * {@code io.legacygateway.inbox.InboxConsumer} (applied messages at DEBUG, dead letters, rollbacks, outages) and
 * {@code ...InboxConsumerFactory} (a consumer's creation and its resources); the parts that write them name this
 * class, not the classes the names come from.
 */
final class InboxLog {

    static final Logger CONSUMER = LoggerFactory.getLogger("io.legacygateway.inbox.InboxConsumer");
    static final Logger FACTORY = LoggerFactory.getLogger("io.legacygateway.inbox.InboxConsumerFactory");

    private InboxLog() {
    }
}
