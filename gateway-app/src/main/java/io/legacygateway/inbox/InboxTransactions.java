package io.legacygateway.inbox;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.broker.BrokerConnections;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.transactions.HookedBranch;
import io.legacygateway.transactions.TransactionMode;
import io.legacygateway.transactions.XaConnectionPool;
import io.legacygateway.transactions.XaDataSources;
import io.legacygateway.transactions.XaSavepoints;
import io.legacygateway.transactions.XaTransactions;
import jakarta.jms.ConnectionFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import javax.sql.XADataSource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What a consumer's batches run on, by its {@code transactionMode}: LOCAL, the datasource's pool and local
 * transaction (the listener's transacted JMS session commits after it); XA, an {@link XaConnectionPool} of the
 * datasource's XA datasource with each batch's database work as a savepoint ({@link XaSavepoints}) of the global
 * transaction that Narayana's manager begins before the listener receives, and the database's and the broker's
 * recovery resources registered (once per gateway).
 */
final class InboxTransactions {

    /**
     * @param dataSource  what the inbox rows and the effects are written on
     * @param transaction one batch's database work
     * @param xa          the listener's global transactions, {@code null} for LOCAL
     */
    record Batches(DataSource dataSource, TransactionOperations transaction, Xa xa) {
    }

    /**
     * What the listener containers of an XA consumer need: the manager that begins a global transaction before each
     * receive, the transactions to enlist the session's branch in, and the hooks of that branch.
     */
    record Xa(PlatformTransactionManager manager, XaTransactions transactions, HookedBranch.Hooks hooks) {
    }

    private final GatewayDataSources dataSources;
    private final ConnectionFactory connectionFactory;
    private final XaTransactions xa;
    private final List<XaConnectionPool> pools = new CopyOnWriteArrayList<>();

    InboxTransactions(GatewayDataSources dataSources, ConnectionFactory connectionFactory, XaTransactions xa) {
        this.dataSources = dataSources;
        this.connectionFactory = connectionFactory;
        this.xa = xa;
    }

    /** The batches of consumer {@code s}, whose inbox is on {@code dataSource}. */
    Batches batches(InboxSettings s, DataSource dataSource, Dialect dialect, List<InboxDeliveryHook> hooks) {
        if (s.transactionMode() != TransactionMode.XA) {
            // the database's default isolation: the inbox needs none stronger (its statements are keyed writes and
            // locking reads) and setting one costs round trips on every transaction
            return new Batches(dataSource, new TransactionTemplate(dataSources.transactionManager(s.dataSource())),
                    null);
        }
        String parameter = InboxSettings.label(s.consumer(), "transactionMode");
        String name = s.dataSource();
        XADataSource xaDataSource = XaDataSources.of(name, dataSources.spec(name, parameter), dialect, dataSource,
                parameter);
        xa.start(parameter);
        xa.recoverWithBroker(() -> BrokerConnections.xaFactory(connectionFactory, parameter));
        xa.recoverWithDatabase(name, xaDataSource);
        HookedBranch.Hooks branchHooks = new HookedBranch.Hooks() {
            @Override
            public void beforePrepare() {
                hooks.forEach(h -> h.beforeBranchPrepare(s.consumer()));
            }

            @Override
            public void beforeCommit() {
                hooks.forEach(h -> h.beforeBranchCommit(s.consumer()));
            }
        };
        XaConnectionPool pool = new XaConnectionPool(xaDataSource, dataSource, xa, branchHooks);
        pools.add(pool);
        return new Batches(pool, new XaSavepoints(pool, dataSource, xa, dialect),
                new Xa(xa.platformTransactionManager(), xa, branchHooks));
    }

    /** Closes the idle XA connections of {@code batches} (an XA consumer released), and forgets its pool. */
    void release(Batches batches) {
        if (batches.dataSource() instanceof XaConnectionPool pool && pools.remove(pool)) {
            pool.close();
        }
    }

    /** Closes the idle XA connections. */
    void close() {
        pools.forEach(XaConnectionPool::close);
    }
}
