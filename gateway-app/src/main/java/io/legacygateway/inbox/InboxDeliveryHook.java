package io.legacygateway.inbox;

import io.legacygateway.envelope.EventEnvelope;
import jakarta.jms.Message;

/**
 * Observes the steps of one delivery at the points where a crash changes the outcome. Production has none; tests
 * register one as a Spring bean to make those windows deterministic: throwing from a hook fails the delivery there, as
 * a crash would (the database transaction rolls back if still open; the JMS transaction rolls back and the broker
 * redelivers).
 */
public interface InboxDeliveryHook {

    /** In the database transaction, before the inbox row is inserted. */
    default void beforeInboxInsert(String consumer, EventEnvelope envelope) {
    }

    /** In the database transaction, after the inbox row and the effect, before the commit. */
    default void beforeDatabaseCommit(String consumer, EventEnvelope envelope) {
    }

    /**
     * After the database commit, before the JMS session commits (acknowledges the message). With
     * {@code transactionMode: XA}: after the batch's database work (its savepoint released), before the global
     * transaction commits both.
     */
    default void afterDatabaseCommitBeforeAck(String consumer, EventEnvelope envelope, InboxOutcome outcome) {
    }

    /**
     * After the route returned, just before the listener's JMS session commits: the acknowledgement of
     * {@code message} and, for a dead letter, its copy on the dead-letter queue, in one transaction. Also for messages
     * that never became an envelope (malformed).
     */
    default void beforeAcknowledge(String consumer, Message message) {
    }

    /**
     * {@code transactionMode: XA}: before each branch of a batch's global transaction prepares (the broker's, enlisted
     * first when the listener received, then the database's): at its first call nothing is prepared. Not called for a
     * transaction committed in one phase (a single branch: a batch of dead letters only).
     */
    default void beforeBranchPrepare(String consumer) {
    }

    /**
     * {@code transactionMode: XA}: before each branch of a batch's global transaction commits in phase two: at its
     * first call both branches are prepared and Narayana has written its record, the window recovery closes.
     */
    default void beforeBranchCommit(String consumer) {
    }
}
