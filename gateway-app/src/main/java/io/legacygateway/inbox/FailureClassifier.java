package io.legacygateway.inbox;

import io.legacygateway.config.LostConnection;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Tells an unreachable database apart from every other failure of the inbox transaction.
 *
 * <p>Unreachable (retried in-process, the message stays unacknowledged and keeps its delivery count): no connection
 * from the pool, a connection refused or lost (SQLState class {@code 08}, PostgreSQL {@code 57P01-57P03}), also when
 * it was lost inside the transaction and the rollback failed with it. Everything else (lock timeout, deadlock,
 * constraint violation, an unexpected bug) goes back to the broker,
 * which redelivers with its backoff until the consumer's last allowed attempt. A failure whose outcome is unknown (the
 * connection died during commit) is retried too: if the commit happened, the retry finds the inbox row and skips.
 */
final class FailureClassifier {

    private FailureClassifier() {
    }

    static boolean databaseUnreachable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CannotCreateTransactionException || t instanceof DataAccessResourceFailureException
                    || LostConnection.is(t)) {
                return true;
            }
            // the connection died in the transaction and the rollback failed too, under a manager that reports the
            // rollback's failure and keeps the one that started it aside (Spring's own; the gateway's keeps the work's:
            // LocalTransactionManager)
            if (t instanceof TransactionSystemException tse && tse.getApplicationException() != null
                    && databaseUnreachable(tse.getApplicationException())) {
                return true;
            }
        }
        return false;
    }
}
