package io.legacygateway.inbox;

import io.legacygateway.adapters.Failures;
import io.legacygateway.adapters.inbox.InboxStore;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.config.DurationText;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.inbox.DeliveryBatch.Delivery;
import io.legacygateway.transactions.XaSavepoints;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.component.jms.JmsMessage;
import org.apache.camel.support.DefaultMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The steps of an {@code inbox-consumer} route (their order is the route's, {@link InboxConsumerTemplate}), on the JMS
 * listener's thread, inside the listener's transacted JMS session. The listener container received the first message;
 * {@code batch} receives up to {@code batchSize - 1} more on the same session ({@link ListenerBatches}, waiting at most
 * {@code batchWait}); {@code validate} reads each message; {@code inbox} runs ONE {@link InboxGuard} database
 * transaction for the batch (inbox rows, effects in the order received, commit); {@code applied} runs each committed
 * message's after-commit hooks. The route then returns and the listener commits the JMS session, which acknowledges
 * every message of the batch. So the acknowledgement always follows the database commit; a crash in between
 * redelivers messages whose effects are applied already, and the inbox skips them. Messages of one aggregate (one
 * {@code JMSXGroupID}) reach one session in order and are applied in that order.
 *
 * <p>What happens to a delivery that fails (as if the batch's messages had been handled one by one, see
 * {@link #isolate}):
 * <ul>
 *   <li>not applicable ({@link DeadLetterException}: malformed, unknown type, too large, business rule, sequence
 *       conflict; a statement the database refused for the message's data, {@link FailureClassifier#refusedData}):
 *       copied alone to the dead-letter queue in the same JMS transaction, which then commits with the
 *       rest of the batch applied once; on the first delivery, never retried;</li>
 *   <li>database unreachable: {@link TargetDatabaseUnavailableException}; the transaction step tries again in-process
 *       with backoff ({@link #applyWhenReachable}), the batch stays unacknowledged and no delivery count is raised.
 *       An outage is an outage only when a new connection fails too: a transaction that loses its connection
 *       {@value #MAX_CONNECTION_LOSSES} times in a row while a new connection works each time is the batch's own
 *       doing (a value over MariaDB's {@code max_allowed_packet} makes the server close the connection), and the
 *       batch is halved until the message is alone, then dead-lettered ({@link DeadLetterReason#DROPS_CONNECTION});</li>
 *   <li>anything else (lock timeout, deadlock, an unexpected error): thrown, so the listener rolls the JMS session
 *       back and the broker redelivers after its redelivery delay; on delivery {@code maxDeliveryAttempts} the
 *       message is dead-lettered by the gateway with the last error and the attempt count instead. The rollback
 *       returns the whole batch: the others' effects that committed are skipped as duplicates when they come back,
 *       and each of them used one delivery attempt (a redelivered message is then retried alone, see
 *       {@link ListenerBatches}).</li>
 * </ul>
 * Not guaranteed: anything the effect does outside the inbox's database (it may run again on a retry).
 *
 * <p>{@code transactionMode: XA}: the JMS and the database transaction are the two branches of one global transaction
 * that the listener container begins and commits in two phases after this returns; each database transaction here is
 * a savepoint of it, undone alone. A global transaction that cannot commit any more
 * ({@link XaSavepoints.BranchLostException}) rolls the batch back: each of its messages uses a delivery attempt.
 */
public final class InboxConsumer implements Processor {

    private static final Logger log = LoggerFactory.getLogger(InboxConsumer.class);
    /** The first wait after the database was found unreachable; doubled up to {@code maxBackoff}. */
    private static final long FIRST_RETRY_MILLIS = 1000;
    /**
     * Connections a transaction may lose in a row, a new connection working after each, before its messages are taken
     * for the cause: its chunk is halved, and a message alone that does it again is dead-lettered.
     */
    static final int MAX_CONNECTION_LOSSES = 3;
    /** How long a new connection may take to prove the database answers. */
    static final int ANSWER_CHECK_SECONDS = 5;
    /** How often a wait for the database looks whether the route stops. */
    private static final long STOP_CHECK_MILLIS = 100;

    private final InboxSettings settings;
    private final int maxDeliveryAttempts;
    private final InboundMessageReader reader;
    private final InboxGuard guard;
    private final DeadLetterWriter deadLetters;
    private final List<InboxDeliveryHook> hooks;
    private final InboxMetrics metrics;
    /** When the database was first found unreachable ({@link System#nanoTime}), 0 while it is reachable. */
    private final AtomicLong failingSince = new AtomicLong();
    private final ListenerBatches batches = new ListenerBatches();
    private final InboxStore store;
    private final TransactionTemplate storeTransaction;
    private final Dialect dialect;
    /** Whether a new connection to the consumer's database works now. */
    private final BooleanSupplier databaseAnswers;

    InboxConsumer(InboxSettings settings, int maxDeliveryAttempts, InboundMessageReader reader, InboxGuard guard,
                  DeadLetterWriter deadLetters, List<InboxDeliveryHook> hooks, MeterRegistry meters, Clock clock,
                  InboxStore store, TransactionTemplate storeTransaction, Dialect dialect,
                  BooleanSupplier databaseAnswers) {
        this.dialect = dialect;
        this.databaseAnswers = databaseAnswers;
        this.store = store;
        this.storeTransaction = storeTransaction;
        this.settings = settings;
        this.maxDeliveryAttempts = maxDeliveryAttempts;
        this.reader = reader;
        this.guard = guard;
        this.deadLetters = deadLetters;
        this.hooks = List.copyOf(hooks);
        this.metrics = new InboxMetrics(settings.consumer(), meters, clock);
    }

    /** The consumer's inbox table (retention). */
    public InboxStore inboxStore() {
        return store;
    }

    /** A transaction of the consumer's datasource. */
    public TransactionTemplate inboxTransaction() {
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
        return metrics.rollbacks();
    }

    /** The batch of each listener session of this consumer, filled by its listener container. */
    ListenerBatches batches() {
        return batches;
    }

    /** The queue that receives this consumer's dead letters. */
    public String deadLetterQueue() {
        return deadLetters.deadLetterQueue();
    }

    /**
     * {@code batch-<consumer>}: receives the rest of the batch the exchange's message starts, on the listener's session;
     * the exchange's message becomes a plain one (no JMS headers) whose body is the messages received, in order, and
     * the exchange holds the {@link InboxBatch}.
     */
    @Override
    public void process(Exchange exchange) throws Exception {
        JmsMessage in = exchange.getIn(JmsMessage.class);
        if (in == null || in.getJmsMessage() == null || in.getJmsSession() == null) {
            throw new IllegalStateException("inbox-consumer '" + name()
                    + "' must be fed by a transacted jms: endpoint");
        }
        List<Message> received = batches.fill(in.getJmsMessage(), settings.batchSize(), settings.maxBatchBytes(),
                settings.batchWait());
        exchange.setProperty(InboxBatch.PROPERTY, new InboxBatch(this, in.getJmsSession(), received));
        // The splits copy the exchange's message for each message of the batch: a copy of the JmsMessage maps every JMS
        // property of the first message to a header again (a fifth of the listener threads' samples in a flight
        // recording). The steps read the batch from the property and the body, never the headers.
        DefaultMessage batchMessage = new DefaultMessage(exchange);
        batchMessage.setBody(received);
        exchange.setMessage(batchMessage);
    }

    /** {@code validate-<consumer>}: {@code message} joins the batch's deliveries, or is dead-lettered. */
    void validate(InboxBatch batch, Message message) throws JMSException {
        int delivery = ListenerBatches.deliveryCount(message);
        try {
            batch.deliveries.add(new Delivery(message, reader.read(message), delivery));
        } catch (DeadLetterException e) {
            deadLetter(batch.session, message, e.reason(), e.getMessage(), e.getCause(), delivery);
        }
    }

    /**
     * {@code inbox-<consumer>}: {@link #apply}, tried again here while the database is unreachable
     * ({@link TargetDatabaseUnavailableException}): after 1 s, doubling up to {@code maxBackoff}, without limit, on the
     * listener's thread, so that an outage of any length uses no delivery attempt; the batch goes on where it stood (its
     * messages are neither received nor validated again). Once {@code stopping} (the route or the context stops), the
     * failure is thrown instead: the listener rolls the session back and the broker keeps the messages.
     *
     * @return the deliveries it committed, in order; none when it rolled back and the batch goes on smaller
     */
    List<InboxBatch.Committed> applyWhenReachable(InboxBatch batch, BooleanSupplier stopping) throws JMSException {
        long wait = 0;
        while (true) {
            try {
                return apply(batch);
            } catch (TargetDatabaseUnavailableException e) {
                wait = nextWait(wait, settings.maxBackoff());
                if (!pause(wait, stopping)) {
                    throw e;
                }
            }
        }
    }

    /** The wait after {@code previous} (0: the first): 1 s, doubling, never more than {@code maxBackoff}. */
    static long nextWait(long previous, Duration maxBackoff) {
        long max = Math.max(1, maxBackoff.toMillis());
        return previous == 0 ? Math.min(FIRST_RETRY_MILLIS, max) : Math.min(previous * 2, max);
    }

    /** Waits {@code millis} unless {@code stopping} turns true first; whether to try again. */
    private boolean pause(long millis, BooleanSupplier stopping) {
        log.debug("Inbox '{}': database '{}' unreachable; next try in {} ms", name(), settings.dataSource(), millis);
        long until = System.nanoTime() + millis * 1_000_000L;
        for (long left = millis; left > 0; left = (until - System.nanoTime()) / 1_000_000L) {
            if (stopping.getAsBoolean()) {
                return false;
            }
            try {
                Thread.sleep(Math.min(left, STOP_CHECK_MILLIS)); // the backoff itself; the route's stop ends it early
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return !stopping.getAsBoolean();
    }

    /**
     * ONE database transaction over the next deliveries of the batch ({@link InboxGuard}). When it throws
     * {@link TargetDatabaseUnavailableException}, the batch is as it was before the call.
     *
     * @return the deliveries it committed, in order; none when it rolled back and the batch goes on smaller
     */
    List<InboxBatch.Committed> apply(InboxBatch batch) throws JMSException {
        DeliveryBatch deliveries = batch.deliveries;
        List<Delivery> chunk = deliveries.next();
        boolean oneByOne = deliveries.oneByOne();
        List<InboxGuard.Result> results;
        try {
            results = metrics.transaction().record(() -> guard.applyAll(
                    chunk.stream().map(Delivery::inbound).toList(), oneByOne));
        } catch (RuntimeException e) {
            isolate(batch.session, deliveries, chunk, e);
            return List.of();
        }
        deliveries.connectionKept();
        List<InboxBatch.Committed> committed = new ArrayList<>(chunk.size());
        for (int i = 0; i < chunk.size(); i++) {
            committed.add(new InboxBatch.Committed(chunk.get(i), results.get(i)));
        }
        chunk.clear();
        return committed;
    }

    /** {@code applied-<consumer>}: after the commit of {@code c}'s transaction: the hooks, then its outcome counted. */
    void applied(InboxBatch batch, InboxBatch.Committed c) throws JMSException {
        if (afterCommit(batch.session, c.delivery(), c.result())) {
            done(c.delivery().inbound().envelope(), c.result(), c.delivery().delivery());
        }
    }

    /** {@code processed-<consumer>}: every message of the batch has its outcome; the listener commits next. */
    void processed(InboxBatch batch) {
        metrics.processed(batch.startedNanos);
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
     * been applied one by one: the database unreachable, retried in-process (the batch stays as it is); else the batch
     * isolates the message whose failure it is ({@link DeliveryBatch#isolate}) and that message alone is decided: one
     * that must not be applied, dead-lettered; any other failure, dead-lettered on its last allowed delivery, else
     * thrown: the session rolls back.
     */
    private void isolate(Session session, DeliveryBatch batch, List<Delivery> chunk, RuntimeException e)
            throws JMSException {
        RuntimeException failure = e instanceof InboxGuard.BatchFailure f ? f.failure() : e;
        if (failure instanceof XaSavepoints.BranchLostException lost) {
            log.warn("Inbox '{}': batch of {} rolled back: {}", name(), batch.received(), Failures.describe(lost));
            throw lost;
        }
        if (failure instanceof TargetDatabaseUnavailableException unavailable) {
            throw unavailable;
        }
        if (FailureClassifier.databaseUnreachable(failure)) {
            if (!databaseAnswers.getAsBoolean()) {
                batch.connectionKept(); // an outage: no message's doing
            } else if (batch.lostConnectionWhileAnswering() >= MAX_CONNECTION_LOSSES) {
                batch.connectionKept();
                log.warn("Inbox '{}': a transaction of {} message(s) lost its connection {} times in a row while new"
                        + " connections to database '{}' worked; {}: {}", name(), chunk.size(), MAX_CONNECTION_LOSSES,
                        settings.dataSource(), chunk.size() == 1 ? "dead-lettering the message"
                                : "halving the batch to find the message", Failures.describe(failure));
                failure = new DeadLetterException(DeadLetterReason.DROPS_CONNECTION, "applying it lost the database"
                        + " connection " + MAX_CONNECTION_LOSSES + " times in a row while new connections worked (a"
                        + " value over the server's packet limit?): " + Failures.describe(failure), failure);
                // not the failing step's position: any message of the chunk may be the one, halved until it is alone
                e = new InboxGuard.BatchFailure(-1, failure);
            }
            if (!(failure instanceof DeadLetterException)) {
                batch.again(chunk); // the same chunk, also while a failing message is being isolated
                unreachable(failure);
                throw new TargetDatabaseUnavailableException("inbox database of '" + name() + "' unreachable: "
                        + Failures.describe(failure), failure);
            }
        }
        SQLException refused = FailureClassifier.refusedData(dialect, failure);
        if (refused != null) {
            // the message's own data: dead-lettered once it is isolated, as a business rule would be
            failure = new DeadLetterException(DeadLetterReason.DATA_REFUSED, "the database refused the effect's data"
                    + " (SQLSTATE " + refused.getSQLState() + "): " + refused.getMessage(), failure);
            e = e instanceof InboxGuard.BatchFailure f
                    ? new InboxGuard.BatchFailure(f.index(), failure, f.statementBatch()) : failure;
        }
        Delivery failed = batch.isolate(chunk, e);
        if (failed == null) {
            return;
        }
        if (failure instanceof DeadLetterException dead) {
            deadLetter(session, failed.message(), dead.reason(), dead.getMessage(), dead.getCause(), failed.delivery());
        } else if (failed.delivery() >= maxDeliveryAttempts) {
            deadLetter(session, failed.message(), DeadLetterReason.RETRIES_EXHAUSTED, "failed on delivery "
                    + failed.delivery() + " of " + maxDeliveryAttempts + ": " + Failures.describe(failure),
                    failure, failed.delivery());
        } else {
            // counted by the listener container when it rolls the session back (InboxListenerContainers)
            log.warn("Inbox '{}': {} rolled back for redelivery by the broker (delivery {} of {}){}: {}", name(),
                    DeadLetterWriter.describe(failed.message()), failed.delivery(), maxDeliveryAttempts,
                    batch.received() == 1 ? ""
                            : " with the " + (batch.received() - 1) + " other message(s) of its batch",
                    Failures.describe(failure));
            throw failure;
        }
    }

    private void done(EventEnvelope envelope, InboxGuard.Result result, int delivery) {
        recovered();
        metrics.outcome(envelope, result);
        switch (result.outcome()) {
            case APPLIED -> log.debug("Inbox '{}': applied {} {} of {}{}", name(), envelope.type(), envelope.id(),
                    envelope.subject(), result.released() == 0 ? ""
                            : " and released " + result.released() + " parked message(s)");
            case DUPLICATE -> log.info("Inbox '{}': {} {} of {} was applied before; skipped (duplicate, delivery {})",
                    name(), envelope.type(), envelope.id(), envelope.subject(), delivery);
            case PARKED -> log.info("Inbox '{}': {} {} of {} arrived ahead of its sequence; parked", name(),
                    envelope.type(), envelope.id(), envelope.subject());
        }
    }

    private void deadLetter(Session session, Message message, DeadLetterReason reason, String detail,
                            Throwable cause, int delivery) throws JMSException {
        deadLetters.send(session, message, reason, detail, cause, delivery);
        metrics.deadLettered(reason);
        log.warn("Inbox '{}': {} moved to {} ({}, delivery {}): {}", name(), DeadLetterWriter.describe(message),
                deadLetters.deadLetterQueue(), reason, delivery, detail);
    }

    private void unreachable(RuntimeException e) {
        metrics.unreachable();
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
}
