package io.legacygateway.transactions;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.config.GatewayProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.XAConnectionFactory;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import javax.sql.DataSource;
import javax.sql.XADataSource;
import javax.transaction.xa.Xid;
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
    /** Where {@link #start} registers the XA meters; {@code null}: none. */
    private final MeterRegistry meters;
    private final List<RecoveryResource> helpers = new ArrayList<>();
    /** The resource managers recovery asks already (datasource names, the broker): relays and consumers share them. */
    private final Set<String> recovered = new HashSet<>();
    /** This gateway's node id claimed in each XA relay's datasource, by datasource name. */
    private final Map<String, XaNodeClaim> claims = new LinkedHashMap<>();
    /** Narayana's (arjunacore) transaction manager, whose transactions are per thread; set by {@link #start}. */
    private TransactionManager transactionManager;
    private XaOutcomes platform;
    private boolean metered;

    public XaTransactions(GatewayProperties.Transactions settings) {
        this(settings, null);
    }

    /**
     * @param meters where {@link #start} registers {@code gateway_xa_transactions_total{outcome}} and
     *               {@code gateway_xa_in_doubt} ({@code null}: nowhere); nothing is registered before
     */
    public XaTransactions(GatewayProperties.Transactions settings, MeterRegistry meters) {
        this.settings = settings;
        this.meters = meters;
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
        Path store = objectStore(forWhat);
        Narayana.configure(store, settings.nodeId(), Math.max(1, (int) settings.recoveryInterval().toSeconds()));
        Narayana.startRecovery();
        transactionManager = Narayana.transactionManager();
        JtaTransactionManager jta = new JtaTransactionManager(Narayana.userTransaction(), transactionManager);
        jta.afterPropertiesSet();
        platform = new XaOutcomes(jta, meters);
        if (meters != null && !metered) {
            Gauge.builder("gateway.xa.in_doubt", this, XaTransactions::recordedNow)
                    .description("transaction records in Narayana's object store: commit decided, a branch not yet"
                            + " committed (recovery's work, or a commit running at this instant)").register(meters);
            metered = true;
        }
        log.info("XA transactions: Narayana with object store {}, node '{}', periodic recovery every {}", store,
                settings.nodeId(), settings.recoveryInterval());
        if (store.startsWith(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath())) {
            log.warn("{} is under the temporary folder ({}): a record there may not survive a restart, and recovery"
                    + " then cannot complete a transaction left between its prepare and its commit", LOG_DIR, store);
        }
    }

    /**
     * Claims this gateway's node id in the database of an XA relay, once per datasource, before {@link #start} runs
     * recovery: refused, naming {@value #NODE_ID}, while another gateway holds it ({@link XaNodeClaim}).
     *
     * @throws IllegalArgumentException naming the key when {@code log-dir} or {@code node-id} is missing
     * @throws IllegalStateException    naming {@value #NODE_ID} when another gateway holds the node id there
     */
    public synchronized void claimNode(String name, DataSource dataSource, Dialect dialect, String forWhat) {
        if (claims.containsKey(name)) {
            return;
        }
        Path store = objectStore(forWhat);
        claims.put(name, XaNodeClaim.claim(name, dataSource, dialect, settings.nodeId(), XaNodeClaim.holder(store),
                forWhat));
    }

    /** The object store's folder; checks that it and the node id are set. */
    private Path objectStore(String forWhat) {
        String dir = settings.logDir();
        if (dir == null || dir.isBlank()) {
            throw new IllegalArgumentException(forWhat + " is XA, which needs " + LOG_DIR + ": the folder of"
                    + " Narayana's object store, which must survive restarts (not under /tmp); it is not set");
        }
        if (settings.nodeId() == null || settings.nodeId().isBlank()) {
            throw new IllegalArgumentException(forWhat + " is XA, which needs " + NODE_ID + ": this instance's"
                    + " transaction node name, unique per gateway sharing a database or broker; it is not set");
        }
        return Path.of(dir).toAbsolutePath().normalize();
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

    /**
     * How many transaction records Narayana's object store holds now (commit decided, not yet complete on every
     * branch); 0 while XA is not started.
     *
     * @throws IllegalStateException when the store cannot be read
     */
    public synchronized int inDoubt() {
        return transactionManager == null ? 0 : Narayana.recordedTransactions().size();
    }

    /** Heuristic outcomes of the global transactions since this start (an operator must look at each). */
    public synchronized long heuristics() {
        return platform == null ? 0 : platform.heuristics();
    }

    /** For the gauge: NaN when the store cannot be read (a scrape never fails on it). */
    private double recordedNow() {
        try {
            return inDoubt();
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * This node's incomplete global transactions: the object store's records and every registered database's and
     * the broker's prepared branches of this node, by global id, oldest first; {@code null} while XA is not started.
     * Each resource manager is scanned on a connection of its own.
     */
    public InDoubtTransactions listInDoubt() {
        List<RecoveryResource> resources;
        synchronized (this) {
            if (transactionManager == null) {
                return null;
            }
            resources = List.copyOf(helpers);
        }
        Set<String> recorded = new LinkedHashSet<>(Narayana.recordedTransactions());
        Map<String, List<String>> prepared = new LinkedHashMap<>();
        recorded.forEach(id -> prepared.put(id, new ArrayList<>()));
        List<String> unscanned = new ArrayList<>();
        for (RecoveryResource r : resources) {
            try {
                for (Xid xid : r.prepared()) {
                    String id = Narayana.globalIdOf(xid, settings.nodeId());
                    if (id != null) {
                        prepared.computeIfAbsent(id, k -> new ArrayList<>()).add(r.name());
                    }
                }
            } catch (Exception e) {
                unscanned.add(r.name() + " (" + e + ")");
            }
        }
        List<InDoubtTransactions.InDoubtTransaction> all = new ArrayList<>();
        prepared.forEach((id, on) -> all.add(new InDoubtTransactions.InDoubtTransaction(id, Narayana.begunAt(id),
                recorded.contains(id), List.copyOf(on))));
        all.sort(Comparator.comparing(InDoubtTransactions.InDoubtTransaction::begunAt,
                Comparator.nullsFirst(Comparator.<Instant>naturalOrder())));
        return new InDoubtTransactions(settings.nodeId(), all, unscanned);
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

    /**
     * Lets periodic recovery ask the broker for its in-doubt branches (once per gateway: {@code factory} is asked for
     * the broker's XA factory only the first time); {@link #start} first.
     */
    public synchronized void recoverWithBroker(Supplier<XAConnectionFactory> factory) {
        if (!recovered.add("broker")) {
            return;
        }
        RecoveryResource resource = RecoveryResource.broker(factory.get());
        helpers.add(resource);
        Narayana.register(resource);
    }

    /**
     * Stops periodic recovery; a transaction between prepare and commit stays in the object store for the next start.
     */
    @Override
    public synchronized void destroy() {
        claims.values().forEach(XaNodeClaim::close);
        claims.clear();
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
