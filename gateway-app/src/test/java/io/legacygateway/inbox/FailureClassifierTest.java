package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/** Which failures mean "the database is unreachable" (retry in-process) and which go back to the broker. */
class FailureClassifierTest {

    @Test
    void noConnectionOrALostOneIsUnreachable() {
        assertThat(FailureClassifier.databaseUnreachable(new CannotCreateTransactionException("no connection",
                new SQLTransientConnectionException("gateway-target - Connection is not available")))).isTrue();
        assertThat(FailureClassifier.databaseUnreachable(new UncategorizedSQLException("update", "UPDATE x",
                new SQLException("An I/O error occurred while sending to the backend", "08006")))).isTrue();
        assertThat(FailureClassifier.databaseUnreachable(new SQLException("terminating connection due to "
                + "administrator command", "57P01"))).isTrue();
    }

    @Test
    void aConnectionLostInsideTheTransactionWhoseRollbackFailedToo() {
        TransactionSystemException rollbackFailed = new TransactionSystemException("JDBC rollback failed",
                new SQLException("Connection is closed"));
        rollbackFailed.initApplicationException(new UncategorizedSQLException("update", "UPDATE x",
                new SQLException("An I/O error occurred while sending to the backend", "08006")));
        assertThat(FailureClassifier.databaseUnreachable(rollbackFailed)).isTrue();
    }

    @Test
    void locksDeadlocksAndEverythingElseGoBackToTheBroker() {
        assertThat(FailureClassifier.databaseUnreachable(new CannotAcquireLockException("lock timeout",
                new SQLException("canceling statement due to lock timeout", "55P03")))).isFalse();
        assertThat(FailureClassifier.databaseUnreachable(new UncategorizedSQLException("update", "UPDATE x",
                new SQLException("Lock wait timeout exceeded", "HY000", 1205)))).isFalse();
        assertThat(FailureClassifier.databaseUnreachable(new IllegalStateException("bug"))).isFalse();
        assertThat(FailureClassifier.databaseUnreachable(new TransactionSystemException("JDBC rollback failed",
                new SQLException("Connection is closed")))).as("without the failure that started it").isFalse();
    }
}
