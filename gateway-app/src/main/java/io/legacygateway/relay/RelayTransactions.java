package io.legacygateway.relay;

import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.broker.BrokerConnections;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.transactions.HookedBranch;
import io.legacygateway.transactions.TransactionMode;
import io.legacygateway.transactions.XaConnectionPool;
import io.legacygateway.transactions.XaDataSources;
import io.legacygateway.transactions.XaTransactions;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.XAConnectionFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import javax.sql.XADataSource;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What a relay's cycle runs on, by its {@code transactionMode}: LOCAL, the datasource's pool and local transaction
 * manager and a transacted JMS session; XA, an {@link XaConnectionPool} of the datasource's XA datasource, Narayana's
 * transaction manager and an XA session, with the database's and the broker's recovery resources registered once.
 */
final class RelayTransactions {

    /**
     * @param dataSource  what the relay's store claims and marks on
     * @param transaction one cycle's transaction
     * @param publisher   the relay's broker side
     * @param resources   what the relay closes besides its publisher ({@code null}: nothing)
     */
    record Cycle(DataSource dataSource, TransactionTemplate transaction, EventPublisher publisher,
                 AutoCloseable resources) {
    }

    private final GatewayDataSources dataSources;
    private final ConnectionFactory connectionFactory;
    private final XaTransactions xa;
    private XAConnectionFactory xaConnectionFactory;

    RelayTransactions(GatewayDataSources dataSources, ConnectionFactory connectionFactory, XaTransactions xa) {
        this.dataSources = dataSources;
        this.connectionFactory = connectionFactory;
        this.xa = xa;
    }

    /** The cycle of a relay whose transactions run on datasource {@code txName}. */
    Cycle cycle(RelaySettings s, String txName, List<RelayCycleHook> hooks) {
        if (s.transactionMode() == TransactionMode.XA) {
            return xa(s, new HookedBranch.Hooks() {
                @Override
                public void beforePrepare() {
                    hooks.forEach(h -> h.beforeBranchPrepare(s.relay()));
                }

                @Override
                public void beforeCommit() {
                    hooks.forEach(h -> h.beforeBranchCommit(s.relay()));
                }
            });
        }
        DataSource dataSource = dataSources.get(txName, RelaySettings.label(s.relay(), "dataSource"));
        TransactionTemplate tx = new TransactionTemplate(dataSources.transactionManager(txName));
        // read committed: the ordering check must see what other relays committed after this claim. Asked for only
        // where the pool's connections are not read committed already (MariaDB's default is repeatable read): with an
        // explicit level Spring asks the driver for the connection's level at the start of every cycle, which PgJDBC
        // answers with a round trip of its own (SHOW TRANSACTION ISOLATION LEVEL)
        if (!readCommittedByDefault(dataSource)) {
            tx.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        }
        return new Cycle(dataSource, tx, new ArtemisPublisher(connectionFactory, s.relay(), s.publishTimeout()), null);
    }

    /**
     * Whether the pool hands out read-committed connections (the pool resets a connection's level when it comes
     * back); asked once, at the relay's start. {@code false} when it cannot tell, so that the cycle asks for it.
     */
    private static boolean readCommittedByDefault(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return c.getTransactionIsolation() == Connection.TRANSACTION_READ_COMMITTED;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Checks that the database can prepare (startup fails naming {@code transactionMode} and the server setting) and
     * that the settings XA needs are there (naming the key), then starts Narayana if it is not running yet.
     */
    private synchronized Cycle xa(RelaySettings s, HookedBranch.Hooks branchHooks) {
        String parameter = RelaySettings.label(s.relay(), "transactionMode");
        String name = s.dataSource();
        DataSource plain = dataSources.get(name, RelaySettings.label(s.relay(), "dataSource"));
        XADataSource xaDataSource = XaDataSources.of(name, dataSources.spec(name, parameter),
                dataSources.dialect(name), plain, parameter);
        // the node id is claimed in the relay's database before recovery runs (XaNodeClaim)
        dataSources.initializeSchema(name, GatewaySchema.RELAY, "outbox-relay '" + s.relay() + "' (its XA node claim)");
        xa.claimNode(name, plain, dataSources.dialect(name), parameter);
        xa.start(parameter);
        if (xaConnectionFactory == null) {
            xaConnectionFactory = BrokerConnections.xaFactory(connectionFactory, parameter);
        }
        XAConnectionFactory broker = xaConnectionFactory;
        xa.recoverWithBroker(() -> broker);
        xa.recoverWithDatabase(name, xaDataSource); // once per datasource: XaTransactions keeps track
        XaConnectionPool pool = new XaConnectionPool(xaDataSource, plain, xa, branchHooks);
        // no isolation level here: Narayana's manager takes none; the pool sets READ COMMITTED on its connections
        TransactionTemplate tx = new TransactionTemplate(xa.platformTransactionManager());
        return new Cycle(pool, tx, new XaArtemisPublisher(xaConnectionFactory, xa, s.relay(), branchHooks),
                pool);
    }
}
