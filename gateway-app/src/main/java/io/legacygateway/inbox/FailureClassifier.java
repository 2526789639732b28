package io.legacygateway.inbox;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.config.LostConnection;
import java.sql.SQLException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Tells an unreachable database and a statement refused for a message's own data apart from every other failure of
 * the inbox transaction.
 *
 * <p>Unreachable (retried in-process, the message stays unacknowledged and keeps its delivery count): no connection
 * from the pool, a connection refused or lost (SQLState class {@code 08}, PostgreSQL {@code 57P01-57P03}), also when
 * it was lost inside the transaction and the rollback failed with it. Everything else (lock timeout, deadlock,
 * constraint violation, an unexpected bug) goes back to the broker,
 * which redelivers with its backoff until the consumer's last allowed attempt. A failure whose outcome is unknown (the
 * connection died during commit) is retried too: if the commit happened, the retry finds the inbox row and skips.
 *
 * <p>Refused for the message's data ({@link #refusedData}): the database refused a statement of the message's
 * transaction for the values it wrote (a value too long or out of range, a NUL character in PostgreSQL text, a NOT
 * NULL, CHECK, unique or foreign key violation: the SQLSTATE classes of {@link Dialect#refusedRows}, as the relay
 * decides for its rows). The same bytes fail the same way again: the message is dead-lettered at once
 * ({@link DeadLetterReason#DATA_REFUSED}) and the rest of its batch commits.
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

    /**
     * The database's refusal in {@code failure} when it refused a statement for the data of the message it was
     * applying ({@link Dialect#refusedRows}), {@code null} otherwise. A parked message released by the sequence gate
     * whose effect is refused is not the delivered message's fault ({@link InboxGuard.ParkedMessageFailure}): null.
     */
    static SQLException refusedData(Dialect dialect, Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InboxGuard.ParkedMessageFailure || t instanceof DeadLetterException) {
                return null;
            }
        }
        return dialect.refusedRows(failure);
    }
}
