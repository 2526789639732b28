package io.legacygateway.inbox;

import io.legacygateway.adapters.Failures;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.inbox.DeliveryBatch.Delivery;
import io.legacygateway.transactions.XaSavepoints;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import java.sql.SQLException;
import java.util.List;
import org.slf4j.Logger;

/**
 * What happens to a delivery that failed, as if the batch's messages had been handled one by one: dead-lettered in the
 * listener's JMS transaction (it must not be applied, or its last allowed delivery failed), waited for in-process (the
 * database is unreachable: {@link TargetDatabaseUnavailableException}), or thrown so that the listener rolls the
 * session back and the broker redelivers. The steps hand their failures here and go on as told (a return) or end the
 * batch (a throw).
 */
final class FailureDecisions {

    private static final Logger log = InboxLog.CONSUMER;
    /**
     * Connections a transaction may lose in a row, a new connection working after each, before its messages are taken
     * for the cause: its chunk is halved, and a message alone that does it again is dead-lettered.
     */
    static final int MAX_CONNECTION_LOSSES = 3;

    private final String consumer;
    private final String dataSource;
    private final int maxDeliveryAttempts;
    private final Dialect dialect;
    private final DeadLetterWriter deadLetters;
    private final InboxMetrics metrics;
    private final DatabaseOutage outage;

    FailureDecisions(InboxSettings settings, int maxDeliveryAttempts, Dialect dialect, DeadLetterWriter deadLetters,
                     InboxMetrics metrics, DatabaseOutage outage) {
        this.consumer = settings.consumer();
        this.dataSource = settings.dataSource();
        this.maxDeliveryAttempts = maxDeliveryAttempts;
        this.dialect = dialect;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.outage = outage;
    }

    /** {@code message} cannot become an envelope ({@link InboundMessageReader}): dead-lettered on any delivery. */
    void invalid(Session session, Message message, DeadLetterException e, int delivery) throws JMSException {
        deadLetter(session, message, e.reason(), e.getMessage(), e.getCause(), delivery);
    }

    /**
     * A hook failed with {@code e} between the database commit and the acknowledgement. On the message's last allowed
     * delivery it is dead-lettered with its reason (its effect is committed: the copy says so, and the inbox skips it
     * when it is redelivered); before that, {@code e} is thrown: the session rolls back and the broker redelivers the
     * batch, whose committed messages the inbox then skips as duplicates.
     */
    void afterCommitFailed(Session session, Delivery d, RuntimeException e) throws JMSException {
        if (d.delivery() < maxDeliveryAttempts) {
            throw e;
        }
        deadLetter(session, d.message(), DeadLetterReason.RETRIES_EXHAUSTED, "failed after the database commit on"
                + " delivery " + d.delivery() + " of " + maxDeliveryAttempts + ": " + Failures.describe(e),
                e, d.delivery());
    }

    /**
     * The transaction of {@code chunk} failed with {@code e} and rolled back. The database unreachable: thrown as
     * {@link TargetDatabaseUnavailableException}, the batch as it was (the same chunk next). Else the batch isolates
     * the message whose failure it is ({@link DeliveryBatch#isolate}) and that message alone is decided: one that must
     * not be applied, dead-lettered; any other failure, dead-lettered on its last allowed delivery, else thrown: the
     * session rolls back. Returns when the batch goes on (smaller, or without the dead-lettered message).
     */
    void rolledBack(Session session, DeliveryBatch batch, List<Delivery> chunk, RuntimeException e)
            throws JMSException {
        RuntimeException failure = e instanceof InboxGuard.BatchFailure f ? f.failure() : e;
        if (failure instanceof XaSavepoints.BranchLostException lost) {
            log.warn("Inbox '{}': batch of {} rolled back: {}", consumer, batch.received(), Failures.describe(lost));
            throw lost;
        }
        if (failure instanceof TargetDatabaseUnavailableException unavailable) {
            throw unavailable;
        }
        if (FailureClassifier.databaseUnreachable(failure)) {
            if (!outage.databaseAnswers()) {
                batch.connectionKept(); // an outage: no message's doing
            } else if (batch.lostConnectionWhileAnswering() >= MAX_CONNECTION_LOSSES) {
                batch.connectionKept();
                log.warn("Inbox '{}': a transaction of {} message(s) lost its connection {} times in a row while new"
                        + " connections to database '{}' worked; {}: {}", consumer, chunk.size(),
                        MAX_CONNECTION_LOSSES, dataSource, chunk.size() == 1 ? "dead-lettering the message"
                                : "halving the batch to find the message", Failures.describe(failure));
                failure = new DeadLetterException(DeadLetterReason.DROPS_CONNECTION, "applying it lost the database"
                        + " connection " + MAX_CONNECTION_LOSSES + " times in a row while new connections worked (a"
                        + " value over the server's packet limit?): " + Failures.describe(failure), failure);
                // not the failing step's position: any message of the chunk may be the one, halved until it is alone
                e = new InboxGuard.BatchFailure(-1, failure);
            }
            if (!(failure instanceof DeadLetterException)) {
                batch.again(chunk); // the same chunk, also while a failing message is being isolated
                outage.unreachable(failure);
                throw new TargetDatabaseUnavailableException("inbox database of '" + consumer + "' unreachable: "
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
            log.warn("Inbox '{}': {} rolled back for redelivery by the broker (delivery {} of {}){}: {}", consumer,
                    DeadLetterWriter.describe(failed.message()), failed.delivery(), maxDeliveryAttempts,
                    batch.received() == 1 ? ""
                            : " with the " + (batch.received() - 1) + " other message(s) of its batch",
                    Failures.describe(failure));
            throw failure;
        }
    }

    private void deadLetter(Session session, Message message, DeadLetterReason reason, String detail,
                            Throwable cause, int delivery) throws JMSException {
        deadLetters.send(session, message, reason, detail, cause, delivery);
        metrics.deadLettered(reason);
        log.warn("Inbox '{}': {} moved to {} ({}, delivery {}): {}", consumer, DeadLetterWriter.describe(message),
                deadLetters.deadLetterQueue(), reason, delivery, detail);
    }
}
