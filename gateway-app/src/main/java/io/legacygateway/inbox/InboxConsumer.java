package io.legacygateway.inbox;

import io.legacygateway.adapters.inbox.InboxStore;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.tracing.GatewayTracing;
import io.legacygateway.transactions.XaSavepoints;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.camel.Processor;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One inbox consumer, assembled from its parts: the steps its {@code inbox-consumer} route runs (their order is the
 * route's, {@link InboxConsumerTemplate}), and what operations read of it (its settings, inbox table, dead-letter
 * queue). The steps run on the JMS listener's thread, inside the listener's transacted JMS session, and know the guard,
 * the store and the effects, never the route; a batch's facts are fields of its {@link InboxBatch}. The listener
 * container received the first message; {@code batch} ({@link ReceiveStep}) receives up to {@code batchSize - 1} more
 * on the same session ({@link ListenerBatches}, waiting at most {@code batchWait}); {@code validate}
 * ({@link ValidateStep}) reads each message; {@code inbox} ({@link ApplyStep}) runs ONE {@link InboxGuard} database
 * transaction for the batch (inbox rows, effects in the order received, commit); {@code applied} ({@link AckStep}) runs
 * each committed message's after-commit hooks. The route then returns and the listener commits the JMS session, which
 * acknowledges every message of the batch. So the acknowledgement always follows the database commit; a crash in
 * between redelivers messages whose effects are applied already, and the inbox skips them. Messages of one aggregate
 * (one {@code JMSXGroupID}) reach one session in order and are applied in that order.
 *
 * <p>What happens to a delivery that fails (as if the batch's messages had been handled one by one,
 * {@link FailureDecisions}):
 * <ul>
 *   <li>not applicable ({@link DeadLetterException}: malformed, unknown type, too large, business rule, sequence
 *       conflict; a statement the database refused for the message's data, {@link FailureClassifier#refusedData}):
 *       copied alone to the dead-letter queue in the same JMS transaction, which then commits with the
 *       rest of the batch applied once; on the first delivery, never retried;</li>
 *   <li>database unreachable: {@link TargetDatabaseUnavailableException}; the transaction step tries again in-process
 *       with backoff ({@link DatabaseOutage}), the batch stays unacknowledged and no delivery count is raised.
 *       An outage is an outage only when a new connection fails too: a transaction that loses its connection
 *       {@value FailureDecisions#MAX_CONNECTION_LOSSES} times in a row while a new connection works each time is the
 *       batch's own doing (a value over MariaDB's {@code max_allowed_packet} makes the server close the connection),
 *       and the batch is halved until the message is alone, then dead-lettered
 *       ({@link DeadLetterReason#DROPS_CONNECTION});</li>
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
public final class InboxConsumer {

    private final InboxSettings settings;
    private final int maxDeliveryAttempts;
    private final InboxStore store;
    private final TransactionTemplate storeTransaction;
    private final String deadLetterQueue;
    private final InboxMetrics metrics;
    private final ListenerBatches batches = new ListenerBatches();
    private final ReceiveStep receive;
    private final ValidateStep validate;
    private final ApplyStep apply;
    private final AckStep ack;

    InboxConsumer(InboxSettings settings, int maxDeliveryAttempts, InboundMessageReader reader, InboxGuard guard,
                  DeadLetterWriter deadLetters, List<InboxDeliveryHook> hooks, MeterRegistry meters, Clock clock,
                  InboxStore store, TransactionTemplate storeTransaction, Dialect dialect,
                  BooleanSupplier databaseAnswers, GatewayTracing tracing) {
        this.settings = settings;
        this.maxDeliveryAttempts = maxDeliveryAttempts;
        this.store = store;
        this.storeTransaction = storeTransaction;
        this.deadLetterQueue = deadLetters.deadLetterQueue();
        this.metrics = new InboxMetrics(settings.consumer(), meters, clock);
        DatabaseOutage outage = new DatabaseOutage(settings, metrics, databaseAnswers);
        FailureDecisions decisions = new FailureDecisions(settings, maxDeliveryAttempts, dialect, deadLetters, metrics,
                outage);
        this.receive = new ReceiveStep(settings, batches);
        this.validate = new ValidateStep(reader, decisions, settings.consumer(), tracing);
        this.apply = new ApplyStep(guard, metrics, decisions, outage, settings.consumer(), tracing);
        this.ack = new AckStep(settings.consumer(), hooks, metrics, decisions, outage);
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

    /** The queue that receives this consumer's dead letters. */
    public String deadLetterQueue() {
        return deadLetterQueue;
    }

    /** {@code gateway_inbox_rollbacks_total}, incremented by the listener container on every rollback. */
    Counter rollbacks() {
        return metrics.rollbacks();
    }

    /** The batch of each listener session of this consumer, filled by its listener container. */
    ListenerBatches batches() {
        return batches;
    }

    /** {@code batch-<consumer>}: receives the batch. */
    Processor receiveStep() {
        return receive;
    }

    /** {@code validate-<consumer>}: one received message. */
    Processor validateStep() {
        return validate;
    }

    /** {@code inbox-<consumer>}: one database transaction of the batch. */
    Processor applyStep() {
        return apply;
    }

    /** {@code applied-<consumer>}: one committed delivery. */
    Processor appliedStep() {
        return ack;
    }

    /** {@code processed-<consumer>}: the batch has its outcomes. */
    Processor processedStep() {
        return ack.processed();
    }
}
