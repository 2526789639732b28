package io.legacygateway.config;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.JdbcTransactionObjectSupport;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.DefaultTransactionStatus;

/**
 * The local transactions of a configured datasource (relay cycles, inbox batches, the attempt log): Spring's
 * {@link DataSourceTransactionManager}, except that a rollback which fails because the connection is gone counts as
 * done.
 *
 * <p>Why: when the database goes away inside a transaction, the work fails on the lost connection and the rollback then
 * fails on it too. Spring would throw the rollback's failure instead of the work's and log the work's at ERROR
 * ("Application exception overridden by rollback exception"), once per lost connection, next to the gateway's own
 * account of the outage. The database discards a transaction whose connection is gone, so the rollback has happened:
 * the work's own failure is what the caller gets, and the connection is returned to the pool, which drops it. A rollback
 * that fails on a connection that still stands is still thrown.
 */
final class LocalTransactionManager extends DataSourceTransactionManager {

    private static final Logger log = LoggerFactory.getLogger(LocalTransactionManager.class);

    LocalTransactionManager(DataSource dataSource) {
        super(dataSource);
    }

    @Override
    protected void doRollback(DefaultTransactionStatus status) {
        try {
            super.doRollback(status);
        } catch (TransactionException e) {
            if (!connectionGone(status, e)) {
                throw e;
            }
            log.debug("Rollback on a lost connection: the database discarded the transaction with it", e);
        }
    }

    private static boolean connectionGone(DefaultTransactionStatus status, TransactionException failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (LostConnection.is(t)) {
                return true;
            }
        }
        try {
            Connection c = ((JdbcTransactionObjectSupport) status.getTransaction()).getConnectionHolder()
                    .getConnection();
            return c.isClosed();
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }
}
