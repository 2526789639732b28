package io.legacygateway.inbox;

import io.legacygateway.envelope.EventEnvelope;

/**
 * A delivered message that passed validation: the envelope, the body as received, and the aggregate sequence when the
 * consumer's sequence gate is on.
 */
record InboundMessage(EventEnvelope envelope, String body, Long sequence) {
}
