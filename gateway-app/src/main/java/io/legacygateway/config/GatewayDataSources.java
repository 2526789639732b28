package io.legacygateway.config;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.SchemaScripts;
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
    private final Map<String, GatewayProperties.DataSourceSpec> specs;
    private final Map<String, Dialect> dialects = new ConcurrentHashMap<>();
    private final Map<String, PlatformTransactionManager> transactionManagers = new ConcurrentHashMap<>();
    private final Set<String> initialized = ConcurrentHashMap.newKeySet();

    public GatewayDataSources(GatewayProperties properties) {
        this.specs = properties.datasources();
        specs.forEach((name, spec) -> {
            HikariConfig config = new HikariConfig();
            config.setPoolName("gateway-" + name);
            config.setJdbcUrl(spec.url());
            config.setUsername(spec.username());
            config.setPassword(spec.password());
            config.setMaximumPoolSize(spec.maximumPoolSize());
            // a legacy database's connection budget is shared with its application: keep few idle connections
            config.setMinimumIdle(Math.min(2, spec.maximumPoolSize()));
            config.setConnectionTimeout(spec.connectTimeout().toMillis());
            // a database that is down at startup must not stop the gateway from starting its other parts
            config.setInitializationFailTimeout(-1);
            spec.properties().forEach(config::addDataSourceProperty);
            pools.put(name, new HikariDataSource(config));
        });
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
        pools.values().forEach(HikariDataSource::close);
    }
}
