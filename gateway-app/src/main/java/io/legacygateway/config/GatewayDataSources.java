package io.legacygateway.config;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.SchemaScripts;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The named legacy databases of {@code gateway.datasources}: one connection pool, one detected {@link Dialect} and one
 * local transaction manager each. Relays and consumers look them up by name.
 */
public class GatewayDataSources implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(GatewayDataSources.class);

    private final Map<String, HikariDataSource> pools = new LinkedHashMap<>();
    /** Each datasource's pool of held connections ({@link #heldConnections}), made on first use. */
    private final Map<String, HikariDataSource> held = new ConcurrentHashMap<>();
    private final Map<String, PlatformTransactionManager> heldTransactionManagers = new ConcurrentHashMap<>();
    private final Map<String, GatewayProperties.DataSourceSpec> specs;
    private final Map<String, Dialect> dialects = new ConcurrentHashMap<>();
    private final Map<String, PlatformTransactionManager> transactionManagers = new ConcurrentHashMap<>();
    private final Map<String, Integer> reservedHeld = new ConcurrentHashMap<>();
    private final Set<String> initialized = ConcurrentHashMap.newKeySet();

    public GatewayDataSources(GatewayProperties properties) {
        this.specs = properties.datasources();
        specs.forEach((name, spec) -> {
            HikariConfig config = config("gateway-" + name, spec);
            config.setMaximumPoolSize(spec.maximumPoolSize());
            // a legacy database's connection budget is shared with its application: keep few idle connections
            config.setMinimumIdle(Math.min(2, spec.maximumPoolSize()));
            pools.put(name, new HikariDataSource(config));
        });
    }

    private static HikariConfig config(String poolName, GatewayProperties.DataSourceSpec spec) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(poolName);
        config.setJdbcUrl(spec.url());
        config.setUsername(spec.username());
        config.setPassword(spec.password());
        config.setConnectionTimeout(spec.connectTimeout().toMillis());
        // a database that is down at startup must not stop the gateway from starting its other parts
        config.setInitializationFailTimeout(-1);
        spec.properties().forEach(config::addDataSourceProperty);
        return config;
    }

    /**
     * Connections of the datasource outside its {@code maximum-pool-size}, for what must never wait for the pool while
     * a relay's cycle holds one of its connections: a {@code wakeUp: NOTIFY} relay's listening connection (held while
     * the relay runs) and the relays' attempt logs (written while the cycle's transaction is open, and committed
     * before the broker commits). Drawn from the pool, they starved it: with {@code maximum-pool-size: 2} a NOTIFY
     * relay held one to listen, its cycle the other, and the attempt-log write waited for a third until the cycle
     * failed, cycle after cycle. Every caller adds the connections it holds at once to this pool's maximum (so none of
     * them waits for another), and none is kept idle for long: the database sees at most {@code maximum-pool-size}
     * plus the sum reserved (one per NOTIFY relay, one per relay with an attempt log on this datasource).
     *
     * @param property    the configuration key that named the datasource, used in the error
     * @param connections how many more this caller holds at once
     */
    public DataSource heldConnections(String name, String property, int connections) {
        GatewayProperties.DataSourceSpec spec = spec(name, property);
        HikariDataSource pool = held.computeIfAbsent(name, n -> {
            HikariConfig config = config("gateway-" + n + "-held", spec);
            config.setMaximumPoolSize(1);
            config.setMinimumIdle(0);
            config.setIdleTimeout(Duration.ofMinutes(1).toMillis());
            return new HikariDataSource(config);
        });
        synchronized (pool) {
            int reserved = reservedHeld.merge(name, connections, Integer::sum);
            pool.getHikariConfigMXBean().setMaximumPoolSize(Math.max(1, reserved));
        }
        return pool;
    }

    /** Gives back what a caller of {@link #heldConnections} reserved (a relay released: a route edited or removed). */
    public void releaseHeldConnections(String name, int connections) {
        HikariDataSource pool = held.get(name);
        if (pool == null) {
            return;
        }
        synchronized (pool) {
            int reserved = reservedHeld.merge(name, -connections, Integer::sum);
            pool.getHikariConfigMXBean().setMaximumPoolSize(Math.max(1, reserved));
        }
    }

    /** The local transactions of {@link #heldConnections} (the attempt logs' own). */
    public PlatformTransactionManager heldTransactionManager(String name) {
        HikariDataSource pool = held.get(name);
        if (pool == null) {
            throw new IllegalStateException("no connections of datasource '" + name + "' are held yet");
        }
        return heldTransactionManagers.computeIfAbsent(name, n -> new LocalTransactionManager(pool));
    }

    /**
     * Creates the tables of one part of the gateway's DDL in that datasource if they are missing, when its
     * {@code initialize-schema} is on; otherwise does nothing (the owner applies the DDL, {@code ddl} command). Called
     * by what needs the part (a relay for its state datasource, a consumer for its datasource, the operator audit),
     * so a datasource gets only the tables of what is configured on it. Applied once per datasource and part.
     *
     * @param forWhat who needs the tables, for the log line
     */
    public void initializeSchema(String name, GatewaySchema part, String forWhat) {
        GatewayProperties.DataSourceSpec spec = specs.get(name);
        if (spec == null || !spec.initializeSchema() || !initialized.add(name + "/" + part.part())) {
            return;
        }
        Dialect dialect = dialect(name);
        log.info("Creating the gateway's {} tables ({}) in datasource '{}' ({}) for {}, if missing", part.part(),
                part.script(), name, dialect.id(), forWhat);
        SchemaScripts.apply(pools.get(name), dialect, part);
    }

    public Set<String> names() {
        return pools.keySet();
    }

    /**
     * @param property the configuration key that named the datasource, used in the error
     * @throws IllegalArgumentException naming the property when no such datasource is configured
     */
    public DataSource get(String name, String property) {
        DataSource ds = pools.get(name);
        if (ds == null) {
            throw new IllegalArgumentException(property + ": no datasource '" + name + "' is configured under "
                    + "gateway.datasources (configured: " + pools.keySet() + ")");
        }
        return ds;
    }

    /** The settings of a configured datasource (an XA datasource is built from the same ones). */
    public GatewayProperties.DataSourceSpec spec(String name, String property) {
        get(name, property);
        return specs.get(name);
    }

    /** The datasource's dialect, detected from its JDBC metadata on first use. */
    public Dialect dialect(String name) {
        return dialects.computeIfAbsent(name, n -> Dialect.detect(get(n, "dataSource")));
    }

    public PlatformTransactionManager transactionManager(String name) {
        return transactionManagers.computeIfAbsent(name, n -> new LocalTransactionManager(get(n, "dataSource")));
    }

    @Override
    public void destroy() {
        held.values().forEach(HikariDataSource::close);
        pools.values().forEach(HikariDataSource::close);
    }
}
