package io.legacygateway.transactions;

import io.legacygateway.adapters.sql.Dialect;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.SimpleTransactionStatus;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * One step of database work inside the calling thread's global transaction, undone alone when it fails: a savepoint
 * of the transaction's database branch (the connection its {@link XaConnectionPool} enlisted) around the callback.
 * Nothing is committed here; the global transaction commits everything in two phases.
 *
 * <p>Why not a {@code TransactionTemplate} on Narayana's manager: a failing participating transaction marks the whole
 * global transaction rollback-only, and JTA has no nested transactions, so one failing step would undo the other
 * branches' work too (an inbox consumer's received messages and dead-letter copies). PostgreSQL and MariaDB both keep
 * savepoints in a transaction that is then prepared.
 *
 * <p>Guaranteed: a callback that throws leaves nothing of its work in the branch, and the global transaction stays
 * active. While the callback runs, the branch's connection is also the one Spring JDBC finds for {@code plain} (the
 * datasource's ordinary pool), so camel-sql steps on {@code dataSource=#<name>} join the branch.
 * Not guaranteed: when the savepoint cannot be rolled back to (the connection was lost) the global transaction is
 * marked rollback-only and {@link BranchLostException} is thrown: only ending the transaction helps then.
 */
public final class XaSavepoints implements TransactionOperations {

    /** The global transaction can no longer commit (ended, timed out, or its database branch was lost). */
    public static final class BranchLostException extends IllegalStateException {
        BranchLostException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static final String NAME = "gateway_step";

    private final XaConnectionPool pool;
    private final DataSource plain;
    private final XaTransactions transactions;
    private final String savepoint;
    private final String rollback;
    private final String release;

    public XaSavepoints(XaConnectionPool pool, DataSource plain, XaTransactions transactions, Dialect dialect) {
        this.pool = pool;
        this.plain = plain;
        this.transactions = transactions;
        Map<String, String> name = Map.of("savepoint", dialect.quote(NAME));
        this.savepoint = dialect.sql("xa.savepoint", name);
        this.rollback = dialect.sql("xa.rollbackToSavepoint", name);
        this.release = dialect.sql("xa.releaseSavepoint", name);
    }

    @Override
    public <T> T execute(TransactionCallback<T> action) throws TransactionException {
        Transaction tx = transactions.active();
        if (tx == null) {
            throw new BranchLostException("no active global transaction on this thread (it timed out or was rolled"
                    + " back)", null);
        }
        Connection c = DataSourceUtils.getConnection(pool);
        run(c, savepoint);
        boolean bound = !TransactionSynchronizationManager.hasResource(plain);
        if (bound) {
            TransactionSynchronizationManager.bindResource(plain, new ConnectionHolder(c));
        }
        T result;
        try {
            result = action.doInTransaction(new SimpleTransactionStatus(false));
        } catch (RuntimeException | Error e) {
            undo(tx, c, e);
            throw e;
        } finally {
            if (bound) {
                TransactionSynchronizationManager.unbindResource(plain);
            }
        }
        run(c, release);
        return result;
    }

    private void undo(Transaction tx, Connection c, Throwable failure) {
        try {
            try (Statement s = c.createStatement()) {
                s.execute(rollback);
            }
        } catch (SQLException | RuntimeException e) {
            failure.addSuppressed(e);
            try {
                tx.setRollbackOnly();
            } catch (SystemException | IllegalStateException ignored) {
                // ended already: it cannot commit either way
            }
            throw new BranchLostException("the database branch could not be rolled back to its savepoint ("
                    + e.getMessage() + "); the global transaction is rolled back: " + failure.getMessage(), failure);
        }
    }

    private static void run(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new DataAccessResourceFailureException(sql + ": " + e.getMessage(), e);
        }
    }
}
