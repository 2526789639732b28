package io.legacygateway.relay;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loggers a relay's lines are written under. Their names are the ones operators' logging configuration and
 * alerts know ({@code io.legacygateway.relay.OutboxRelay} for the cycles, {@code ...OutboxRelayFactory} for a relay's
 * creation); the parts that write them name this class, not the classes that use them.
 */
final class RelayLog {

    /** A relay's cycles: failed rows, backoff, backlog samples, the attempt log's evidence. */
    static final Logger RELAY = LoggerFactory.getLogger("io.legacygateway.relay.OutboxRelay");
    /** A relay's creation: its settings checked against its database and table. */
    static final Logger STARTUP = LoggerFactory.getLogger("io.legacygateway.relay.OutboxRelayFactory");

    private RelayLog() {
    }
}
