package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import java.util.List;

/**
 * Observes a relay cycle at the point where the broker has confirmed a batch and the rows are not yet marked: the
 * window in which a crash makes the relay publish again. Production has none; tests register one as a Spring bean to
 * make that window deterministic (throwing from it rolls the marks back, as a crash would).
 */
public interface RelayCycleHook {

    void afterPublishBeforeMark(String relay, List<OutboxRow> published);

    /**
     * Called when a cycle's batch has been sent and its attempts are on record, before the broker is asked to commit
     * it ({@code transactionMode: LOCAL}; in XA, before the global transaction's commit): the window in which a
     * connection lost or a broker killed leaves the commit's outcome unknown. Called again when the batch is sent again
     * in the same cycle (on a new connection, or one message at a time: then before each message's commit).
     */
    default void beforeBrokerCommit(String relay) {
    }

    /**
     * {@code transactionMode: XA}: called before each branch of a cycle's global transaction commits in phase two
     * (the database's, the broker's), so at its first call both are prepared and Narayana has written its record: the
     * window that recovery closes after a crash. Not called for a transaction committed in one phase (a single
     * branch).
     */
    default void beforeBranchCommit(String relay) {
    }

    /**
     * {@code transactionMode: XA}: called before each branch of a cycle's global transaction prepares, so at its second
     * call the first branch is prepared and Narayana has written no record yet: a crash there leaves a prepared branch
     * that recovery must roll back.
     */
    default void beforeBranchPrepare(String relay) {
    }
}
