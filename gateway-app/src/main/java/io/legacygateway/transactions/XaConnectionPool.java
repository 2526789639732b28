package io.legacygateway.transactions;

import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import javax.sql.DataSource;
import javax.sql.XAConnection;
import javax.sql.XADataSource;
import org.springframework.jdbc.datasource.AbstractDataSource;

/**
 * A {@link DataSource} whose connections, inside a global transaction, are the handle of one XA connection enlisted
 * in that transaction: every statement of the transaction on this datasource runs in its database branch, which
 * Narayana prepares and commits with the others. Outside a global transaction it hands out connections of the
 * ordinary pool ({@code plain}), for the work that is no cycle's (backlog samples, inspections).
 *
 * <p>XA connections are kept between transactions, idle ones in a small stack; one that took part in a transaction
 * that did not end normally, or that no longer answers after a rollback, is closed instead. Each is set to READ
 * COMMITTED once, when opened (the relay's ordering check must see what other relays committed after its claim).
 */
public final class XaConnectionPool extends AbstractDataSource implements AutoCloseable {

    private static final int VALIDATION_SECONDS = 2;

    private final XADataSource xa;
    private final DataSource plain;
    private final XaTransactions transactions;
    private final HookedBranch.Hooks hooks;
    private final ConcurrentLinkedDeque<XAConnection> idle = new ConcurrentLinkedDeque<>();
    private final Map<Transaction, Connection> enlisted = new ConcurrentHashMap<>();

    /**
     * @param hooks run before this branch prepares and before it commits in phase two ({@link HookedBranch})
     */
    public XaConnectionPool(XADataSource xa, DataSource plain, XaTransactions transactions, HookedBranch.Hooks hooks) {
        this.xa = xa;
        this.plain = plain;
        this.transactions = transactions;
        this.hooks = hooks;
    }

    /** The database branch of the calling thread's global transaction, or a connection of the plain pool. */
    @Override
    public Connection getConnection() throws SQLException {
        Transaction tx = transactions.active();
        if (tx == null) {
            return plain.getConnection();
        }
        Connection handle = enlisted.get(tx);
        return handle != null ? handle : enlist(tx);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLException("the XA connections use the datasource's configured user");
    }

    private Connection enlist(Transaction tx) throws SQLException {
        XAConnection connection = idle.pollFirst();
        if (connection == null) {
            connection = xa.getXAConnection();
            connection.getConnection().setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        }
        XAConnection leased = connection;
        Connection handle = unclosable(leased.getConnection());
        try {
            if (!tx.enlistResource(new HookedBranch(leased.getXAResource(), hooks))) {
                throw new SQLException("the global transaction refused the database branch");
            }
            tx.registerSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    enlisted.remove(tx);
                    if (status == Status.STATUS_COMMITTED
                            || status == Status.STATUS_ROLLEDBACK && valid(leased)) {
                        idle.offerFirst(leased);
                    } else {
                        closeQuietly(leased);
                    }
                }
            });
        } catch (RollbackException | SystemException | IllegalStateException e) {
            closeQuietly(leased);
            throw new SQLException("cannot enlist the database branch: " + e, e);
        }
        enlisted.put(tx, handle);
        return handle;
    }

    /** The handle as Spring's JDBC code uses it: closing it ends nothing, the transaction's completion does. */
    private static Connection unclosable(Connection handle) {
        return (Connection) Proxy.newProxyInstance(XaConnectionPool.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    try {
                        return method.invoke(handle, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** After a rollback, which may come from a lost connection (a database restart): is it still usable? */
    private static boolean valid(XAConnection connection) {
        try {
            return connection.getConnection().isValid(VALIDATION_SECONDS);
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    private static void closeQuietly(XAConnection connection) {
        try {
            connection.close();
        } catch (SQLException | RuntimeException ignored) {
            // a broken connection: the server ends its branch (not prepared: rolled back)
        }
    }

    /** Closes the idle XA connections. */
    @Override
    public void close() {
        for (XAConnection c; (c = idle.pollFirst()) != null; ) {
            closeQuietly(c);
        }
    }
}
