package io.legacygateway.transactions;

import io.legacygateway.config.GatewayProperties;
import jakarta.jms.XAConnectionFactory;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.XADataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.jta.JtaTransactionManager;

/**
 * Narayana for the relays with {@code transactionMode: XA}, started by the first of them ({@link #start}) and not
 * before: a gateway whose relays are all LOCAL loads none of it, creates no object store and runs no recovery. Its
 * transaction manager is handed to those relays only, never registered as the application's
 * ({@link PlatformTransactionManager} bean), so LOCAL relays and inbox consumers keep their local ones.
 *
 * <p>Narayana's configuration is per JVM: the first start fixes the object store and node name; a later start with
 * other values fails naming the key.
 */
public class XaTransactions implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(XaTransactions.class);
    public static final String LOG_DIR = "gateway.transactions.log-dir";
    public static final String NODE_ID = "gateway.transactions.node-id";

    private final GatewayProperties.Transactions settings;
    private final List<RecoveryResource> helpers = new ArrayList<>();
    /** The resource managers recovery asks already (datasource names, the broker): relays and consumers share them. */
    private final Set<String> recovered = new HashSet<>();
    /** Narayana's (arjunacore) transaction manager, whose transactions are per thread; set by {@link #start}. */
    private TransactionManager transactionManager;
    private JtaTransactionManager platform;

    public XaTransactions(GatewayProperties.Transactions settings) {
        this.settings = settings;
    }

    /**
     * Checks the settings XA needs and starts Narayana and its periodic recovery, once.
     *
     * @param forWhat who needs XA, for the errors (for example {@code outbox-relay 'orders' parameter
     *                'transactionMode'})
     * @throws IllegalArgumentException naming the key when {@code log-dir} or {@code node-id} is missing
     */
    public synchronized void start(String forWhat) {
        if (transactionManager != null) {
            return;
        }
        String dir = settings.logDir();
        if (dir == null || dir.isBlank()) {
            throw new IllegalArgumentException(forWhat + " is XA, which needs " + LOG_DIR + ": the folder of"
                    + " Narayana's object store, which must survive restarts (not under /tmp); it is not set");
        }
        if (settings.nodeId() == null || settings.nodeId().isBlank()) {
            throw new IllegalArgumentException(forWhat + " is XA, which needs " + NODE_ID + ": this instance's"
                    + " transaction node name, unique per gateway sharing a database or broker; it is not set");
        }
        Path store = Path.of(dir).toAbsolutePath().normalize();
        Narayana.configure(store, settings.nodeId(), Math.max(1, (int) settings.recoveryInterval().toSeconds()));
        Narayana.startRecovery();
        transactionManager = Narayana.transactionManager();
        platform = new JtaTransactionManager(Narayana.userTransaction(), transactionManager);
        platform.afterPropertiesSet();
        log.info("XA transactions: Narayana with object store {}, node '{}', periodic recovery every {}", store,
                settings.nodeId(), settings.recoveryInterval());
        if (store.startsWith(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath())) {
            log.warn("{} is under the temporary folder ({}): a record there may not survive a restart, and recovery"
                    + " then cannot complete a transaction left between its prepare and its commit", LOG_DIR, store);
        }
    }

    /** Whether a relay started Narayana (operations, tests). */
    public synchronized boolean started() {
        return transactionManager != null;
    }

    /** Narayana's transaction manager; {@link #start} first. */
    public synchronized TransactionManager transactionManager() {
        if (transactionManager == null) {
            throw new IllegalStateException("XA transactions are not started");
        }
        return transactionManager;
    }

    /** The same manager as Spring sees it, for a relay's {@code TransactionTemplate}; {@link #start} first. */
    public synchronized PlatformTransactionManager platformTransactionManager() {
        if (platform == null) {
            throw new IllegalStateException("XA transactions are not started");
        }
        return platform;
    }

    /** The active global transaction of this thread, {@code null} when there is none. */
    public Transaction active() {
        try {
            Transaction tx = transactionManager().getTransaction();
            return tx != null && tx.getStatus() == Status.STATUS_ACTIVE ? tx : null;
        } catch (SystemException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Lets periodic recovery ask this database for its in-doubt branches (once per name); {@link #start} first. (The
     * parameters are JDBC's and JMS's types: Spring reads this bean's method signatures, which must name no Narayana
     * type.)
     */
    public synchronized void recoverWithDatabase(String name, XADataSource xa) {
        if (!recovered.add("datasource " + name)) {
            return;
        }
        RecoveryResource resource = RecoveryResource.database(name, xa);
        helpers.add(resource);
        Narayana.register(resource);
    }

    /** Lets periodic recovery ask the broker for its in-doubt branches (once per gateway); {@link #start} first. */
    public synchronized void recoverWithBroker(XAConnectionFactory factory) {
        if (!recovered.add("broker")) {
            return;
        }
        RecoveryResource resource = RecoveryResource.broker(factory);
        helpers.add(resource);
        Narayana.register(resource);
    }

    /**
     * Stops periodic recovery; a transaction between prepare and commit stays in the object store for the next start.
     */
    @Override
    public synchronized void destroy() {
        if (transactionManager == null) {
            return;
        }
        for (RecoveryResource r : helpers) {
            Narayana.unregister(r);
            r.close();
        }
        helpers.clear();
        recovered.clear();
        Narayana.stopRecovery();
        platform = null;
        transactionManager = null;
    }
}
