package io.legacygateway.inbox;

import io.legacygateway.adapters.inbox.InboxStore;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.envelope.MalformedEnvelopeException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies an event's effect at most once per consumer: ONE local transaction on the consumer's database that first
 * inserts the inbox row (message id, consumer) and, only if that inserted a row, applies the effect; then commits.
 *
 * <p>Guarantees: the effect and the inbox row commit together or not at all; for one (message id, consumer) at most
 * one transaction that applied the effect commits, also when copies of a message are processed concurrently (the
 * primary key decides, see {@link InboxStore#record}). Nothing here talks to the broker: the caller acknowledges the
 * message only after {@link #apply} returned, so a crash before that returns the message to the broker, and the
 * redelivery is skipped as a duplicate if the commit happened.
 *
 * <p>With the sequence gate on, a message whose sequence is not the aggregate's next one is parked (stored with its
 * body, inbox row inserted, effect not applied) and applied in the transaction of the message that fills the gap
 * before it. A sequence that was applied already, or a second message for a parked sequence, is refused
 * ({@link DeadLetterReason#SEQUENCE_CONFLICT}). If the effect of a released parked message fails, the whole
 * transaction fails with it and the filling message is retried; the aggregate stays blocked until an operator acts
 * (a poisoned aggregate is parked, never applied out of order).
 */
final class InboxGuard {

    /** What one transaction did; {@code released} counts parked messages applied after the delivered one. */
    record Result(InboxOutcome outcome, int released) {
    }

    private final String consumer;
    private final InboxStore store;
    private final TransactionTemplate transaction;
    private final Map<String, List<InboxEffect>> effects;
    private final boolean gated;
    private final EnvelopeCodec codec;
    private final Clock clock;
    private final List<InboxDeliveryHook> hooks;

    InboxGuard(String consumer, InboxStore store, TransactionTemplate transaction,
               Map<String, List<InboxEffect>> effects, boolean gated, EnvelopeCodec codec, Clock clock,
               List<InboxDeliveryHook> hooks) {
        this.consumer = consumer;
        this.store = store;
        this.transaction = transaction;
        this.effects = Map.copyOf(effects);
        this.gated = gated;
        this.codec = codec;
        this.clock = clock;
        this.hooks = List.copyOf(hooks);
    }

    /**
     * Runs the inbox transaction for one delivered message.
     *
     * @throws DeadLetterException     when the event must not be applied (business rule, sequence conflict); the
     *                                 transaction is rolled back
     * @throws RuntimeException        any database or effect failure; the transaction is rolled back
     */
    Result apply(InboundMessage message) {
        EventEnvelope envelope = message.envelope();
        return Objects.requireNonNull(transaction.execute(status -> {
            hooks.forEach(h -> h.beforeInboxInsert(consumer, envelope));
            if (!store.record(envelope.id(), consumer, clock.instant())) {
                return new Result(InboxOutcome.DUPLICATE, 0);
            }
            Result result = gated ? gate(message) : applyEffect(envelope);
            hooks.forEach(h -> h.beforeDatabaseCommit(consumer, envelope));
            return result;
        }));
    }

    private Result applyEffect(EventEnvelope envelope) {
        try {
            for (InboxEffect effect : effects.get(envelope.type())) {
                effect.apply(envelope);
            }
        } catch (BusinessRuleViolationException e) {
            throw new DeadLetterException(DeadLetterReason.BUSINESS_RULE, e.getMessage(), e);
        }
        return new Result(InboxOutcome.APPLIED, 0);
    }

    private Result gate(InboundMessage message) {
        EventEnvelope envelope = message.envelope();
        String aggregate = envelope.groupId();
        long sequence = message.sequence();
        long last = store.lockSequence(consumer, aggregate);
        if (sequence <= last) {
            throw new DeadLetterException(DeadLetterReason.SEQUENCE_CONFLICT, "sequence " + sequence + " of "
                    + aggregate + " was applied already (last applied: " + last + ")");
        }
        if (sequence > last + 1) {
            Optional<InboxStore.ParkedMessage> other = store.parked(consumer, aggregate, sequence);
            if (other.isPresent()) {
                throw new DeadLetterException(DeadLetterReason.SEQUENCE_CONFLICT, "message " + other.get().messageId()
                        + " is parked at sequence " + sequence + " of " + aggregate + " already");
            }
            store.park(consumer, aggregate, sequence, envelope.id(), message.body(), clock.instant());
            return new Result(InboxOutcome.PARKED, 0);
        }
        applyEffect(envelope);
        int released = 0;
        for (long next = sequence + 1; ; next++) {
            Optional<InboxStore.ParkedMessage> parked = store.parked(consumer, aggregate, next);
            if (parked.isEmpty()) {
                break;
            }
            release(parked.get(), aggregate, next);
            store.unpark(consumer, aggregate, next);
            released++;
            sequence = next;
        }
        store.advanceSequence(consumer, aggregate, sequence);
        return new Result(InboxOutcome.APPLIED, released);
    }

    private void release(InboxStore.ParkedMessage parked, String aggregate, long sequence) {
        try {
            applyEffect(codec.read(parked.envelope()));
        } catch (MalformedEnvelopeException | DeadLetterException e) {
            throw new IllegalStateException("parked message " + parked.messageId() + " (sequence " + sequence + " of "
                    + aggregate + ") cannot be applied: " + e.getMessage(), e);
        }
    }
}
