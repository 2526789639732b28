package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.envelope.EventEnvelope;

/** A claimed row turned into the message the relay sends: envelope, its JSON and the resolved address. */
public record OutboundEvent(OutboxRow row, EventEnvelope envelope, String json, String address, boolean topic) {
}
