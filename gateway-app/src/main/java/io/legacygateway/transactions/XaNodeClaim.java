package io.legacygateway.transactions;

import io.legacygateway.adapters.sql.Dialect;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * This gateway's claim of its XA node id ({@value XaTransactions#NODE_ID}) in one database an XA relay uses: a row of
 * {@value #TABLE} (DDL in {@code ddl/<db>/relay-state.sql}) naming the holder, kept alive by a heartbeat.
 *
 * <p>Why: Narayana's recovery presumes abort of every prepared branch whose transaction id carries its node id and
 * that its own object store does not know. Two gateways with one node id each roll back the other's prepared broker
 * branch after its database branch committed: the row is marked published and its event is never queued. So a
 * gateway claims its node id before its recovery starts, and a second holder is refused at its start, naming the key.
 *
 * <p>Guaranteed: a gateway whose node id is held by another holder whose heartbeat is younger than {@link #LEASE}
 * does not start (its relay fails naming the key, the holder and the datasource), before any recovery of it runs. The
 * holder is the host name and the object store folder: the same instance restarted after a crash (kill -9, a host
 * reboot) is the same holder and claims its node id again at once, without waiting for the lease. A holder whose
 * heartbeat is older than the lease (stopped, or cut from the database that long) is taken over, with a warning.
 *
 * <p>Why a row with a lease rather than a lock held by a connection (PostgreSQL advisory lock, MariaDB
 * {@code GET_LOCK}): such a lock goes with its connection, silently, when a network blip, a database restart or a
 * failover drops it, and a second gateway could then take it while the first goes on running; the row survives those,
 * shows who holds the node id ({@code SELECT * FROM gateway_xa_node}), and needs nothing but a table the gateway
 * already has rights on. What it does not guarantee: a second gateway started while the holder has been cut from this
 * database for longer than the lease takes the node id over (the holder logs an ERROR at its next heartbeat); and
 * gateways on different databases are not compared (each database an XA relay uses holds its own claim).
 */
public final class XaNodeClaim implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(XaNodeClaim.class);

    public static final String TABLE = "gateway_xa_node";
    /** How long a heartbeat keeps the claim against another holder; heartbeats every third of it. */
    public static final Duration LEASE = Duration.ofSeconds(60);

    private final String dataSourceName;
    private final String nodeId;
    private final String holder;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final Dialect dialect;
    private final ScheduledExecutorService heartbeat;
    private final Duration lease;
    private volatile boolean lost;

    private XaNodeClaim(String dataSourceName, DataSource dataSource, Dialect dialect, String nodeId, String holder,
                        Duration lease) {
        this.dataSourceName = dataSourceName;
        this.lease = lease;
        this.nodeId = nodeId;
        this.holder = holder;
        this.dialect = dialect;
        this.jdbc = new JdbcTemplate(dataSource);
        this.transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, "xa-node-" + nodeId + "-" + dataSourceName);
            t.setDaemon(true);
            return t;
        });
    }

    /** This gateway as a holder: host name and object store folder. */
    public static String holder(Path objectStore) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        String h = host + ":" + objectStore.toAbsolutePath().normalize();
        return h.length() <= 600 ? h : h.substring(h.length() - 600);
    }

    /**
     * Claims {@code nodeId} for {@code holder} in the datasource and starts its heartbeat.
     *
     * @param forWhat who needs it, for the errors
     * @throws IllegalStateException naming {@value XaTransactions#NODE_ID} when another holder's lease is alive, or
     *                               naming the DDL when the table is missing
     */
    public static XaNodeClaim claim(String dataSourceName, DataSource dataSource, Dialect dialect, String nodeId,
                                    String holder, String forWhat) {
        return claim(dataSourceName, dataSource, dialect, nodeId, holder, forWhat, LEASE);
    }

    /** As {@link #claim(String, DataSource, Dialect, String, String, String)}, with another lease (tests). */
    static XaNodeClaim claim(String dataSourceName, DataSource dataSource, Dialect dialect, String nodeId,
                             String holder, String forWhat, Duration lease) {
        if (!dialect.has("xaNode.read")) {
            throw new IllegalArgumentException(forWhat + " is XA, which " + dialect.id() + " does not offer");
        }
        XaNodeClaim claim = new XaNodeClaim(dataSourceName, dataSource, dialect, nodeId, holder, lease);
        try {
            claim.take(forWhat);
        } catch (DuplicateKeyException race) {
            claim.take(forWhat); // another gateway inserted it at the same instant: its row decides
        } catch (RuntimeException e) {
            claim.heartbeat.shutdownNow();
            throw e;
        }
        long every = lease.toMillis() / 3;
        claim.heartbeat.scheduleWithFixedDelay(claim::beat, every, every, TimeUnit.MILLISECONDS);
        return claim;
    }

    private void take(String forWhat) {
        try {
            transaction.executeWithoutResult(status -> {
                List<Map<String, Object>> held = jdbc.queryForList(dialect.sql("xaNode.read", Map.of()), nodeId);
                if (held.isEmpty()) {
                    jdbc.update(dialect.sql("xaNode.insert", Map.of()), nodeId, holder);
                    log.info("XA node id '{}' claimed in datasource '{}' by {}", nodeId, dataSourceName, holder);
                    return;
                }
                Object[] row = held.get(0).values().toArray();
                String other = String.valueOf(row[0]);
                double age = ((Number) row[1]).doubleValue();
                if (!other.equals(holder) && age < lease.toMillis() / 1000.0) {
                    throw new IllegalStateException(forWhat + " is XA with " + XaTransactions.NODE_ID + " '" + nodeId
                            + "', which another gateway holds in datasource '" + dataSourceName + "': " + other
                            + " (heartbeat " + Math.round(age) + " s ago, table " + TABLE + "). Two gateways with one"
                            + " node id roll back each other's prepared transactions in their recovery (a row marked"
                            + " published whose event is never queued): give each gateway its own "
                            + XaTransactions.NODE_ID + ". A holder that is gone gives the id up " + lease.toSeconds()
                            + " s after its last heartbeat");
                }
                jdbc.update(dialect.sql("xaNode.take", Map.of()), holder, nodeId);
                if (!other.equals(holder)) {
                    log.warn("XA node id '{}' taken over in datasource '{}' by {} from {}, whose last heartbeat was {}"
                            + " s ago", nodeId, dataSourceName, holder, other, Math.round(age));
                }
            });
        } catch (DuplicateKeyException race) {
            throw race;
        } catch (DataAccessException e) {
            throw new IllegalStateException(forWhat + " is XA: cannot claim " + XaTransactions.NODE_ID + " '" + nodeId
                    + "' in datasource '" + dataSourceName + "' (table " + TABLE + ", created by initialize-schema or "
                    + dialect.ddlResource("relay-state.sql") + "): " + e.getMostSpecificCause().getMessage(), e);
        }
    }

    private void beat() {
        try {
            int kept = jdbc.update(dialect.sql("xaNode.heartbeat", Map.of()), nodeId, holder);
            if (kept == 0 && !lost) {
                lost = true;
                log.error("XA node id '{}' in datasource '{}' is no longer held by this gateway ({}): another gateway"
                        + " took it over after this one's heartbeat lapsed; their recoveries can roll back each other's"
                        + " prepared transactions. Stop one of them and give each its own {}", nodeId, dataSourceName,
                        holder, XaTransactions.NODE_ID);
            }
        } catch (RuntimeException e) {
            log.warn("XA node id '{}': heartbeat in datasource '{}' failed (the claim lapses after {} s without one):"
                    + " {}", nodeId, dataSourceName, lease.toSeconds(), e.toString());
        }
    }

    /** Whether another gateway took the node id over since this claim (see the class comment). */
    public boolean lost() {
        return lost;
    }

    /** Stops the heartbeat; the row stays, and lapses after the lease unless this instance claims it again. */
    @Override
    public void close() {
        heartbeat.shutdownNow();
    }
}
