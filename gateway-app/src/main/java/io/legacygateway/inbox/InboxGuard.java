package io.legacygateway.inbox;

import io.legacygateway.adapters.inbox.InboxStore;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.envelope.MalformedEnvelopeException;
import io.legacygateway.transactions.XaSavepoints;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.transaction.support.TransactionOperations;

/**
 * Applies an event's effect at most once per consumer: ONE local transaction on the consumer's database that first
 * inserts the inbox rows (message id, consumer) of a batch of messages and, for each message whose row that inserted,
 * applies the effect; then commits. With {@code transactionMode: XA} the "transaction" is a savepoint of the batch's
 * global transaction ({@code XaSavepoints}): it is undone alone when it fails, and commits with the acknowledgement.
 *
 * <p>Guarantees: the effect and the inbox row commit together or not at all; for one (message id, consumer) at most
 * one transaction that applied the effect commits, also when copies of a message are processed concurrently (the
 * primary key decides, see {@link InboxStore#recordAll}), or twice in one batch. Nothing here talks to the broker: the
 * caller acknowledges the messages only after {@link #applyAll} returned, so a crash before that returns them to the
 * broker, and the redelivery is skipped as a duplicate if the commit happened.
 *
 * <p>With the sequence gate on, a message whose sequence is not the aggregate's next one is parked (stored with its
 * body, inbox row inserted, effect not applied) and applied in the transaction of the message that fills the gap
 * before it. A sequence that was applied already, or a second message for a parked sequence, is refused
 * ({@link DeadLetterReason#SEQUENCE_CONFLICT}). If the effect of a released parked message fails, the whole
 * transaction fails with it and the filling message is retried; the aggregate stays blocked until an operator acts
 * (a poisoned aggregate is parked, never applied out of order).
 *
 * <p>Versioned contracts: before the effects, each first delivery of the batch is upcast to the current version of its
 * type ({@link Upcasts}), in the transaction; an upcast that fails is that message's failure
 * ({@link DeadLetterReason#UPCAST_FAILED}). A parked message is stored as received and upcast when it is released.
 */
final class InboxGuard {

    /** What one transaction did; {@code released} counts parked messages applied after the delivered one. */
    record Result(InboxOutcome outcome, int released) {
    }

    private final String consumer;
    private final InboxStore store;
    private final TransactionOperations transaction;
    private final Map<String, List<InboxEffect>> effects;
    private final boolean gated;
    private final EnvelopeCodec codec;
    private final Clock clock;
    private final List<InboxDeliveryHook> hooks;
    private final Upcasts upcasts;

    InboxGuard(String consumer, InboxStore store, TransactionOperations transaction,
               Map<String, List<InboxEffect>> effects, boolean gated, EnvelopeCodec codec, Clock clock,
               List<InboxDeliveryHook> hooks, Upcasts upcasts) {
        this.upcasts = upcasts;
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
     * A failure of a batch's transaction (rolled back), with the position of the message whose step failed: its inbox
     * hook, its effect or its sequence gate; {@code -1} when no single message's step failed (the multi-row insert).
     * The messages before that position ran without failing in the rolled-back transaction.
     */
    static final class BatchFailure extends RuntimeException {
        private final int index;
        private final boolean statementBatch;

        BatchFailure(int index, RuntimeException cause) {
            this(index, cause, false);
        }

        BatchFailure(int index, RuntimeException cause, boolean statementBatch) {
            super(cause.getMessage(), cause);
            this.index = index;
            this.statementBatch = statementBatch;
        }

        int index() {
            return index;
        }

        /**
         * The effects of several messages ran as one JDBC batch and it failed: {@link #index} is the first of them,
         * not necessarily the one that failed. Applying the same messages one by one tells which.
         */
        boolean statementBatch() {
            return statementBatch;
        }

        RuntimeException failure() {
            return (RuntimeException) getCause();
        }
    }

    /**
     * Runs ONE inbox transaction for a batch of delivered messages, in their order: the inbox rows of all of them first
     * (one multi-row insert, {@link InboxStore#recordAll}), then each first delivery's effect (or sequence gate), then
     * the commit. A message whose id was recorded before, or that came earlier in the same batch, is a duplicate: its
     * effect is not applied. The result of message {@code i} is at position {@code i}.
     *
     * <p>Without the sequence gate, consecutive messages whose type's only effect is the same SQL statement run it as
     * one JDBC batch, in their order ({@link SqlEffect#applyAll}); {@code oneByOne} runs every effect alone (after a
     * failed JDBC batch, to find the message that failed).
     *
     * @throws BatchFailure wrapping any failure inside the transaction ({@link DeadLetterException}, database or
     *                      effect failure) with the failing message's position; the transaction is rolled back
     * @throws RuntimeException a failure of the transaction itself (begin, commit), for no particular message
     */
    List<Result> applyAll(List<InboundMessage> messages, boolean oneByOne) {
        return Objects.requireNonNull(transaction.execute(status -> {
            int at = -1;
            try {
                for (at = 0; at < messages.size(); at++) {
                    EventEnvelope envelope = messages.get(at).envelope();
                    hooks.forEach(h -> h.beforeInboxInsert(consumer, envelope));
                }
                at = -1;
                Set<String> recorded = store.recordAll(messages.stream().map(m -> m.envelope().id()).toList(),
                        consumer, clock.instant());
                List<EventEnvelope> current = upcast(messages, recorded);
                List<Result> results = new ArrayList<>(messages.size());
                Set<String> applied = new HashSet<>();
                for (at = 0; at < messages.size(); at++) {
                    InboundMessage message = messages.get(at);
                    EventEnvelope envelope = message.envelope();
                    if (!recorded.contains(envelope.id()) || !applied.add(envelope.id())) {
                        results.add(new Result(InboxOutcome.DUPLICATE, 0));
                        continue;
                    }
                    SqlEffect statement = gated || oneByOne ? null : onlyStatement(envelope);
                    if (statement == null) {
                        results.add(gated ? gate(message, current.get(at)) : applyEffect(current.get(at)));
                        hooks.forEach(h -> h.beforeDatabaseCommit(consumer, envelope));
                        continue;
                    }
                    // this message and the next first deliveries with the same single statement: one JDBC batch
                    List<Integer> run = new ArrayList<>();
                    run.add(at);
                    for (int next = at + 1; next < messages.size(); next++) {
                        EventEnvelope e = messages.get(next).envelope();
                        if (recorded.contains(e.id()) && !applied.contains(e.id()) && onlyStatement(e) == statement) {
                            applied.add(e.id());
                            run.add(next);
                        } else {
                            break;
                        }
                    }
                    applyRun(statement, current, run);
                    for (int i : run) {
                        at = i;
                        results.add(new Result(InboxOutcome.APPLIED, 0));
                        EventEnvelope e = messages.get(i).envelope();
                        hooks.forEach(h -> h.beforeDatabaseCommit(consumer, e));
                    }
                }
                return results;
            } catch (BatchFailure e) {
                throw e;
            } catch (RuntimeException e) {
                throw new BatchFailure(at, e);
            }
        }));
    }

    /**
     * The envelope each message's effect gets: its first delivery in the batch upcast to the current version of its
     * type ({@link Upcasts}), any other one as it is (its effect is not applied).
     */
    private List<EventEnvelope> upcast(List<InboundMessage> messages, Set<String> recorded) {
        if (upcasts == Upcasts.NONE) {
            return messages.stream().map(InboundMessage::envelope).toList();
        }
        List<EventEnvelope> current = new ArrayList<>(messages.size());
        Set<String> first = new HashSet<>();
        for (int i = 0; i < messages.size(); i++) {
            EventEnvelope envelope = messages.get(i).envelope();
            try {
                current.add(recorded.contains(envelope.id()) && first.add(envelope.id()) ? upcasts.apply(envelope)
                        : envelope);
            } catch (RuntimeException e) {
                throw new BatchFailure(i, e);
            }
        }
        return current;
    }

    /** The effect of a message when it is exactly one SQL statement, else {@code null}. */
    private SqlEffect onlyStatement(EventEnvelope envelope) {
        List<InboxEffect> list = effects.get(envelope.type());
        return list != null && list.size() == 1 && list.get(0) instanceof SqlEffect sql ? sql : null;
    }

    /** The effects of {@code run} (positions in {@code messages}) as one JDBC batch, or alone when it is one. */
    private void applyRun(SqlEffect statement, List<EventEnvelope> envelopes, List<Integer> run) {
        if (run.size() == 1) {
            try {
                applyEffect(envelopes.get(run.get(0)));
            } catch (RuntimeException e) {
                throw new BatchFailure(run.get(0), e);
            }
            return;
        }
        try {
            statement.applyAll(run.stream().map(envelopes::get).toList());
        } catch (SqlEffect.BatchFailure f) {
            RuntimeException failure = f.failure() instanceof BusinessRuleViolationException b
                    ? new DeadLetterException(DeadLetterReason.BUSINESS_RULE, b.getMessage(), b) : f.failure();
            throw f.index() < 0 ? new BatchFailure(run.get(0), failure, true)
                    : new BatchFailure(run.get(f.index()), failure);
        }
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

    /** {@code envelope}: the message's, upcast. */
    private Result gate(InboundMessage message, EventEnvelope envelope) {
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
            applyEffect(upcasts.apply(codec.read(parked.envelope())));
        } catch (XaSavepoints.BranchLostException e) {
            throw e;
        } catch (MalformedEnvelopeException | RuntimeException e) {
            // the failure of the parked message, not of the one being delivered: never dead-letters the latter
            throw new ParkedMessageFailure("parked message " + parked.messageId() + " (sequence " + sequence + " of "
                    + aggregate + ") cannot be applied: " + e.getMessage(), e);
        }
    }

    /**
     * The effect of a parked message released by the sequence gate failed: a failure of the delivered message's
     * transaction that is not its own data's. Decided like any other failure (an unreachable database in its causes
     * is one), never as a refusal of the delivered message ({@link FailureClassifier#refusedData}).
     */
    static final class ParkedMessageFailure extends IllegalStateException {
        ParkedMessageFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
