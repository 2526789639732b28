package io.legacygateway.transactions;

import com.arjuna.ats.arjuna.common.CoordinatorEnvironmentBean;
import com.arjuna.ats.arjuna.common.CoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.CoreEnvironmentBeanException;
import com.arjuna.ats.arjuna.common.ObjectStoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.RecoveryEnvironmentBean;
import com.arjuna.ats.arjuna.recovery.RecoveryManager;
import com.arjuna.ats.internal.jta.recovery.arjunacore.XARecoveryModule;
import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionManagerImple;
import com.arjuna.ats.internal.jta.transaction.arjunacore.UserTransactionImple;
import com.arjuna.ats.jta.common.JTAEnvironmentBean;
import com.arjuna.ats.jta.recovery.XAResourceRecoveryHelper;
import com.arjuna.common.internal.util.propertyservice.BeanPopulator;
import io.legacygateway.config.GatewayProperties;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
    /** What the first start in this JVM configured: Narayana's environment beans cannot change afterwards. */
    private static String configured;

    private final GatewayProperties.Transactions settings;
    private final List<XAResourceRecoveryHelper> helpers = new ArrayList<>();
    private RecoveryManager recovery;
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
        if (recovery != null) {
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
        configure(store, settings.nodeId(), Math.max(1, (int) settings.recoveryInterval().toSeconds()));
        RecoveryManager.delayRecoveryManagerThread();
        recovery = RecoveryManager.manager(RecoveryManager.INDIRECT_MANAGEMENT);
        recovery.initialize();
        recovery.startRecoveryManagerThread();
        transactionManager = new TransactionManagerImple();
        platform = new JtaTransactionManager(new UserTransactionImple(), transactionManager);
        platform.afterPropertiesSet();
        log.info("XA transactions: Narayana with object store {}, node '{}', periodic recovery every {}", store,
                settings.nodeId(), settings.recoveryInterval());
        if (store.startsWith(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath())) {
            log.warn("{} is under the temporary folder ({}): a record there may not survive a restart, and recovery"
                    + " then cannot complete a transaction left between its prepare and its commit", LOG_DIR, store);
        }
    }

    private static synchronized void configure(Path store, String nodeId, int recoverySeconds) {
        String wanted = store + " " + nodeId;
        if (configured != null) {
            if (!configured.equals(wanted)) {
                throw new IllegalStateException(LOG_DIR + " and " + NODE_ID + ": Narayana already runs in this JVM"
                        + " with " + configured + "; one object store and node per JVM");
            }
            return;
        }
        try {
            Files.createDirectories(store);
        } catch (IOException e) {
            throw new UncheckedIOException(LOG_DIR + ": cannot create " + store, e);
        }
        for (String name : List.of("default", "communicationStore", "stateStore")) {
            ObjectStoreEnvironmentBean bean = BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, name);
            bean.setObjectStoreDir(store.toString());
        }
        try {
            BeanPopulator.getDefaultInstance(CoreEnvironmentBean.class).setNodeIdentifier(nodeId);
        } catch (CoreEnvironmentBeanException e) {
            throw new IllegalArgumentException(NODE_ID + ": " + e.getMessage(), e);
        }
        // recovery rolls back the unfinished branches of this node only (the node name is in every Xid)
        BeanPopulator.getDefaultInstance(JTAEnvironmentBean.class).setXaRecoveryNodes(List.of(nodeId));
        RecoveryEnvironmentBean recovery = BeanPopulator.getDefaultInstance(RecoveryEnvironmentBean.class);
        recovery.setRecoveryListener(false); // no socket: the gateway needs no remote trigger of a recovery pass
        recovery.setPeriodicRecoveryPeriod(recoverySeconds);
        recovery.setRecoveryBackoffPeriod(Math.max(1, Math.min(10, recoverySeconds / 2)));
        BeanPopulator.getDefaultInstance(CoordinatorEnvironmentBean.class).setDefaultTimeout(60);
        configured = wanted;
    }

    /** Whether a relay started Narayana (operations, tests). */
    public synchronized boolean started() {
        return recovery != null;
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

    /** Lets periodic recovery ask this resource manager for its in-doubt branches; {@link #start} first. */
    public synchronized void recoverWith(XAResourceRecoveryHelper helper) {
        helpers.add(helper);
        XARecoveryModule.getRegisteredXARecoveryModule().addXAResourceRecoveryHelper(helper);
    }

    /** Stops periodic recovery; a transaction between prepare and commit stays in the object store for the next start. */
    @Override
    public synchronized void destroy() {
        if (recovery == null) {
            return;
        }
        XARecoveryModule module = XARecoveryModule.getRegisteredXARecoveryModule();
        for (XAResourceRecoveryHelper h : helpers) {
            if (module != null) {
                module.removeXAResourceRecoveryHelper(h);
            }
            if (h instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception e) {
                    log.debug("closing a recovery resource failed: {}", e.toString());
                }
            }
        }
        helpers.clear();
        recovery.terminate();
        recovery = null;
        platform = null;
        transactionManager = null;
    }
}
