package io.legacygateway.inbox;

import io.legacygateway.adapters.Failures;
import io.legacygateway.config.DurationText;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EventEnvelope;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.component.jms.JmsMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles one batch of deliveries of an {@code inbox-consumer} route, on the JMS listener's thread, inside the
 * listener's transacted JMS session. The listener container received the first message; this receives up to
 * {@code batchSize - 1} more on the same session ({@link ListenerBatches}, waiting at most {@code batchWait}). Order of
 * events: validate each message; run ONE {@link InboxGuard} database transaction for the batch (inbox rows, effects in
 * the order received, commit); return, after which the listener commits the JMS session, which acknowledges every
 * message of the batch. So the acknowledgement always follows the database commit; a crash in between redelivers
 * messages whose effects are applied already, and the inbox skips them. Messages of one aggregate (one
 * {@code JMSXGroupID}) reach one session in order and are applied in that order.
 *
 * <p>What happens to a delivery that fails (as if the batch's messages had been handled one by one, see
 * {@link #isolate}):
 * <ul>
 *   <li>not applicable ({@link DeadLetterException}: malformed, unknown type, too large, business rule, sequence
 *       conflict): copied alone to the dead-letter queue in the same JMS transaction, which then commits with the
 *       rest of the batch applied once; on the first delivery, never retried;</li>
 *   <li>database unreachable: {@link TargetDatabaseUnavailableException}; the route retries in-process with backoff,
 *       the batch stays unacknowledged and no delivery count is raised;</li>
 *   <li>anything else (lock timeout, deadlock, an unexpected error): thrown, so the listener rolls the JMS session
 *       back and the broker redelivers after its redelivery delay; on delivery {@code maxDeliveryAttempts} the
 *       message is dead-lettered by the gateway with the last error and the attempt count instead. The rollback
 *       returns the whole batch: the others' effects that committed are skipped as duplicates when they come back,
 *       and each of them used one delivery attempt (a redelivered message is then retried alone, see
 *       {@link ListenerBatches}).</li>
 * </ul>
 * Not guaranteed: anything the effect does outside the inbox's database (it may run again on a retry).
 */
public final class InboxConsumer implements Processor {

    private static final Logger log = LoggerFactory.getLogger(InboxConsumer.class);
    /** Exchange property: the {@link Batch} of the delivery, kept across the in-process retries of an outage. */
    private static final String BATCH = "gatewayInboxBatch";

    private final InboxSettings settings;
    private final int maxDeliveryAttempts;
    private final InboundMessageReader reader;
    private final InboxGuard guard;
    private final DeadLetters deadLetters;
    private final List<InboxDeliveryHook> hooks;
    private final MeterRegistry meters;

    private final Counter applied;
    private final Counter duplicates;
    private final Counter parked;
    private final Counter released;
    private final Counter rolledBack;
    private final Counter unreachable;
    private final Timer transaction;
    private final Timer processing;
    private final Timer lag;
    private final AtomicLong failingSince = new AtomicLong();
    private final ListenerBatches batches = new ListenerBatches();
    private final java.time.Clock clock;
    private final io.legacygateway.adapters.inbox.InboxStore store;
    private final org.springframework.transaction.support.TransactionTemplate storeTransaction;

    InboxConsumer(InboxSettings settings, int maxDeliveryAttempts, InboundMessageReader reader, InboxGuard guard,
                  DeadLetters deadLetters, List<InboxDeliveryHook> hooks, MeterRegistry meters, java.time.Clock clock,
                  io.legacygateway.adapters.inbox.InboxStore store,
                  org.springframework.transaction.support.TransactionTemplate storeTransaction) {
        this.clock = clock;
        this.store = store;
        this.storeTransaction = storeTransaction;
        this.settings = settings;
        this.maxDeliveryAttempts = maxDeliveryAttempts;
        this.reader = reader;
        this.guard = guard;
        this.deadLetters = deadLetters;
        this.hooks = List.copyOf(hooks);
        this.meters = meters;
        String c = settings.consumer();
        applied = Counter.builder("gateway.inbox.applied").description("Messages whose effect committed")
                .tag("consumer", c).register(meters);
        duplicates = Counter.builder("gateway.inbox.duplicates")
                .description("Deliveries skipped because the inbox row existed: the effect was applied before")
                .tag("consumer", c).register(meters);
        parked = Counter.builder("gateway.inbox.parked")
                .description("Sequence gate: messages stored until the gap before them is filled")
                .tag("consumer", c).register(meters);
        released = Counter.builder("gateway.inbox.released")
                .description("Sequence gate: parked messages applied once their turn came")
                .tag("consumer", c).register(meters);
        rolledBack = Counter.builder("gateway.inbox.rollbacks")
                .description("JMS session rollbacks (or failed commits), from any cause: each returns the session's"
                        + " batch of messages to the broker unacknowledged and uses one of their delivery attempts")
                .tag("consumer", c).register(meters);
        unreachable = Counter.builder("gateway.inbox.database.unreachable")
                .description("Attempts that found the inbox database unreachable (retried in-process)")
                .tag("consumer", c).register(meters);
        transaction = Timer.builder("gateway.inbox.transaction")
                .description("One inbox database transaction: a batch of deliveries").tag("consumer", c).register(meters);
        processing = Timer.builder("gateway.inbox.processing")
                .description("One batch of deliveries handled to their outcomes (applied, duplicate, parked or"
                        + " dead-lettered): receiving the batch, validation, inbox transactions, dead-letter sends").tag("consumer", c).register(meters);
        lag = Timer.builder("gateway.inbox.lag")
                .description("From the event's time (CloudEvents time) to its effect's commit").tag("consumer", c)
                .register(meters);
    }

    /** The consumer's inbox table (retention). */
    public io.legacygateway.adapters.inbox.InboxStore inboxStore() {
        return store;
    }

    /** A transaction of the consumer's datasource. */
    public org.springframework.transaction.support.TransactionTemplate inboxTransaction() {
        return storeTransaction;
    }

    public String name() {
        return settings.consumer();
    }

    public InboxSettings settings() {
        return settings;
    }

    /** The delivery on which a transiently failing message is dead-lettered. */
    public int maxDeliveryAttempts() {
        return maxDeliveryAttempts;
    }

    /** {@code gateway_inbox_rollbacks_total}, incremented by the listener container on every rollback. */
    Counter rollbacks() {
        return rolledBack;
    }

    /** The batch of each listener session of this consumer, filled by its listener container. */
    ListenerBatches batches() {
        return batches;
    }

    /** The queue that receives this consumer's dead letters. */
    public String deadLetterQueue() {
        return deadLetters.deadLetterQueue();
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        JmsMessage in = exchange.getIn(JmsMessage.class);
        if (in == null || in.getJmsMessage() == null || in.getJmsSession() == null) {
            throw new IllegalStateException("inbox-consumer '" + name()
                    + "' must be fed by a transacted jms: endpoint");
        }
        Session session = in.getJmsSession();
        long started = System.nanoTime();
        // an in-process retry after an outage calls this again with the same exchange: the batch continues
        Batch batch = exchange.getProperty(BATCH, Batch.class);
        if (batch == null) {
            batch = new Batch();
            exchange.setProperty(BATCH, batch);
            List<Message> received = batches.fill(in.getJmsMessage(), settings.batchSize(), settings.batchWait());
            batch.size = received.size();
            for (Message message : received) {
                int delivery = ListenerBatches.deliveryCount(message);
                try {
                    batch.pending.add(new Delivery(message, reader.read(message), delivery));
                } catch (DeadLetterException e) {
                    deadLetter(session, message, e.reason(), e.getMessage(), e.getCause(), delivery);
                }
            }
        }
        while (!batch.pending.isEmpty()) {
            int size = batch.limit > 0 ? batch.limit : batch.pending.size();
            batch.limit = 0;
            List<Delivery> chunk = batch.pending.subList(0, size);
            boolean oneByOne = batch.oneByOne;
            List<InboxGuard.Result> results;
            try {
                results = transaction.record(() -> guard.applyAll(chunk.stream().map(Delivery::inbound).toList(),
                        oneByOne));
            } catch (RuntimeException e) {
                isolate(session, batch, chunk, e);
                continue;
            }
            List<Delivery> committed = List.copyOf(chunk);
            chunk.clear();
            for (int i = 0; i < committed.size(); i++) {
                Delivery d = committed.get(i);
                InboxGuard.Result result = results.get(i);
                if (afterCommit(session, d, result)) {
                    done(d.inbound().envelope(), result, d.delivery());
                }
            }
        }
        processing.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /**
     * Runs the hooks between the database commit and the acknowledgement. A failure there, on the message's last allowed
     * delivery, dead-letters it with its reason (its effect is committed: the copy says so, and the inbox skips it when
     * it is redelivered); before that, the session rolls back and the broker redelivers the batch, whose committed
     * messages the inbox then skips as duplicates.
     *
     * @return whether the delivery goes on to be acknowledged as applied (false: dead-lettered)
     */
    private boolean afterCommit(Session session, Delivery d, InboxGuard.Result result) throws JMSException {
        try {
            hooks.forEach(h -> h.afterDatabaseCommitBeforeAck(name(), d.inbound().envelope(), result.outcome()));
            return true;
        } catch (RuntimeException e) {
            if (d.delivery() < maxDeliveryAttempts) {
                throw e;
            }
            deadLetter(session, d.message(), DeadLetterReason.RETRIES_EXHAUSTED, "failed after the database commit on"
                    + " delivery " + d.delivery() + " of " + maxDeliveryAttempts + ": " + Failures.describe(e),
                    e, d.delivery());
            return false;
        }
    }

    /**
     * The transaction of {@code chunk} failed and rolled back. Decides what happens next, as if the chunk's messages had
     * been applied one by one: the database unreachable, retried in-process (the batch stays as it is); a message that
     * must not be applied, dead-lettered alone, and the others retried together; any other failure of the first
     * message, decided for it alone (dead-lettered on its last allowed delivery, else thrown: the session rolls back);
     * a failure of a later message, the messages before it retried as a batch first, so that it heads the next
     * transaction and its failure is its own; a failure of no particular message (the multi-row insert, the commit),
     * the chunk halved until it is; a failure of a JDBC batch of effects, the same chunk again with each effect alone.
     */
    private void isolate(Session session, Batch batch, List<Delivery> chunk, RuntimeException e) throws JMSException {
        int at = e instanceof InboxGuard.BatchFailure f ? f.index() : -1;
        RuntimeException failure = e instanceof InboxGuard.BatchFailure f ? f.failure() : e;
        if (failure instanceof TargetDatabaseUnavailableException unavailable) {
            throw unavailable;
        }
        if (FailureClassifier.databaseUnreachable(failure)) {
            unreachable(failure);
            throw new TargetDatabaseUnavailableException("inbox database of '" + name() + "' unreachable: "
                    + Failures.describe(failure), failure);
        }
        if (e instanceof InboxGuard.BatchFailure f && f.statementBatch()) {
            // which message's statement failed is not known: the same chunk again, each effect alone
            batch.limit = chunk.size();
            batch.oneByOne = true;
            return;
        }
        if (at < 0 && chunk.size() > 1) {
            batch.limit = chunk.size() / 2;
            return;
        }
        if (at > 0 && !(failure instanceof DeadLetterException)) {
            batch.limit = at;
            return;
        }
        Delivery failed = chunk.remove(Math.max(at, 0));
        batch.oneByOne = false; // the failing message is found: the rest goes back to JDBC batches
        if (failure instanceof DeadLetterException dead) {
            deadLetter(session, failed.message(), dead.reason(), dead.getMessage(), dead.getCause(), failed.delivery());
        } else if (failed.delivery() >= maxDeliveryAttempts) {
            deadLetter(session, failed.message(), DeadLetterReason.RETRIES_EXHAUSTED, "failed on delivery "
                    + failed.delivery() + " of " + maxDeliveryAttempts + ": " + Failures.describe(failure),
                    failure, failed.delivery());
        } else {
            // counted by the listener container when it rolls the session back (InboxListenerContainers)
            log.warn("Inbox '{}': {} rolled back for redelivery by the broker (delivery {} of {}){}: {}", name(),
                    describe(failed.message()), failed.delivery(), maxDeliveryAttempts,
                    batch.size == 1 ? "" : " with the " + (batch.size - 1) + " other message(s) of its batch",
                    Failures.describe(failure));
            throw failure;
        }
    }

    /** A received message that became an envelope, with its delivery count. */
    private record Delivery(Message message, InboundMessage inbound, int delivery) {
    }

    /** The messages of one session's batch not handled yet, in the order received. */
    private static final class Batch {
        final List<Delivery> pending = new ArrayList<>();
        /** How many of {@code pending} the next transaction takes; 0: all. */
        int limit;
        /** Transactions run each effect alone, not as a JDBC batch, until the message that failed one is found. */
        boolean oneByOne;
        int size;
    }

    private void done(EventEnvelope envelope, InboxGuard.Result result, int delivery) {
        recovered();
        switch (result.outcome()) {
            case APPLIED -> {
                applied.increment(1 + result.released());
                if (envelope.time() != null) {
                    lag.record(java.time.Duration.between(envelope.time(), clock.instant()).abs());
                }
                released.increment(result.released());
                log.debug("Inbox '{}': applied {} {} of {}{}", name(), envelope.type(), envelope.id(),
                        envelope.subject(), result.released() == 0 ? "" : " and released " + result.released()
                                + " parked message(s)");
            }
            case DUPLICATE -> {
                duplicates.increment();
                log.info("Inbox '{}': {} {} of {} was applied before; skipped (duplicate, delivery {})", name(),
                        envelope.type(), envelope.id(), envelope.subject(), delivery);
            }
            case PARKED -> {
                parked.increment();
                log.info("Inbox '{}': {} {} of {} arrived ahead of its sequence; parked", name(), envelope.type(),
                        envelope.id(), envelope.subject());
            }
        }
    }

    private void deadLetter(Session session, Message message, DeadLetterReason reason, String detail,
                            Throwable cause, int delivery) throws JMSException {
        deadLetters.send(session, message, reason, detail, cause, delivery);
        Counter.builder("gateway.inbox.dead.letters").description("Messages moved to the dead-letter queue")
                .tag("consumer", name()).tag("reason", reason.name()).register(meters).increment();
        log.warn("Inbox '{}': {} moved to {} ({}, delivery {}): {}", name(), describe(message),
                deadLetters.deadLetterQueue(), reason, delivery, detail);
    }

    private void unreachable(RuntimeException e) {
        unreachable.increment();
        if (failingSince.compareAndSet(0, System.nanoTime())) {
            log.warn("Inbox '{}': database '{}' unreachable; the message stays unacknowledged and is retried here "
                    + "with backoff up to {} (no delivery attempt is used): {}", name(), settings.dataSource(),
                    DurationText.format(settings.maxBackoff()), Failures.describe(e));
        }
    }

    private void recovered() {
        long since = failingSince.getAndSet(0);
        if (since != 0) {
            log.info("Inbox '{}': database '{}' reachable again after {} s", name(), settings.dataSource(),
                    (System.nanoTime() - since) / 1_000_000_000L);
        }
    }

    private static String describe(Message message) {
        try {
            // properties are the sender's, not validated: printable and short before they reach a log line
            EnvelopeMessages.Headers envelope = EnvelopeMessages.read(message);
            String id = envelope.id();
            String type = envelope.type();
            String text = (type == null ? "message" : type) + " " + (id == null ? message.getJMSMessageID() : id);
            text = text.replaceAll("\\p{Cntrl}", "?");
            return text.length() <= 200 ? text : text.substring(0, 200) + "…";
        } catch (JMSException | RuntimeException e) {
            return "message";
        }
    }
}
