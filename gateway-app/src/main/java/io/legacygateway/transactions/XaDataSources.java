package io.legacygateway.transactions;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.config.GatewayProperties;
import java.sql.SQLException;
import java.util.Map;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import javax.sql.XADataSource;
import org.mariadb.jdbc.MariaDbDataSource;
import org.postgresql.xa.PGXADataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The XA datasource of a configured {@code gateway.datasources.<name>}, built from the same settings as its pool (URL,
 * user, password, driver properties), for the databases whose drivers offer one and whose server can prepare: the
 * checks run at startup and name the parameter and the server setting.
 */
public final class XaDataSources {

    private XaDataSources() {
    }

    /**
     * @param pool      the datasource's ordinary pool, for the server check
     * @param parameter what asked for XA, named in the errors ({@code outbox-relay 'orders' parameter
     *                  'transactionMode'})
     * @throws IllegalArgumentException when the database cannot take part in two-phase commit
     */
    public static XADataSource of(String name, GatewayProperties.DataSourceSpec spec, Dialect dialect,
                                  DataSource pool, String parameter) {
        try {
            return switch (dialect) {
                case POSTGRESQL -> postgres(name, spec, dialect, pool, parameter);
                case MARIADB -> mariaDb(spec);
                default -> throw new IllegalArgumentException(parameter + ": XA needs a database that can prepare a"
                        + " transaction (PostgreSQL or MariaDB); datasource '" + name + "' is " + dialect.id()
                        + ", which the gateway offers no XA datasource for. Use LOCAL");
            };
        } catch (SQLException e) {
            throw new IllegalArgumentException(parameter + ": cannot build the XA datasource of '" + name + "': "
                    + e.getMessage(), e);
        }
    }

    private static XADataSource postgres(String name, GatewayProperties.DataSourceSpec spec, Dialect dialect,
                                         DataSource pool, String parameter) throws SQLException {
        Integer prepared = new JdbcTemplate(pool).queryForObject(dialect.sql("xa.preparedTransactions", Map.of()),
                Integer.class);
        if (prepared == null || prepared == 0) {
            throw new IllegalArgumentException(parameter + ": XA needs PostgreSQL's max_prepared_transactions above 0,"
                    + " and datasource '" + name + "' has 0, so every prepare would fail. Set it on the server (for"
                    + " example ALTER SYSTEM SET max_prepared_transactions = 10, then restart PostgreSQL: it is read at"
                    + " server start only), or use LOCAL");
        }
        PGXADataSource xa = new PGXADataSource();
        xa.setUrl(spec.url());
        xa.setUser(spec.username());
        xa.setPassword(spec.password());
        for (Map.Entry<String, String> p : spec.properties().entrySet()) {
            xa.setProperty(p.getKey(), p.getValue());
        }
        return xa;
    }

    private static XADataSource mariaDb(GatewayProperties.DataSourceSpec spec) throws SQLException {
        String url = spec.url();
        if (!spec.properties().isEmpty()) {
            url += (url.contains("?") ? "&" : "?") + spec.properties().entrySet().stream()
                    .map(p -> p.getKey() + "=" + p.getValue()).collect(Collectors.joining("&"));
        }
        MariaDbDataSource xa = new MariaDbDataSource(url);
        if (spec.username() != null) {
            xa.setUser(spec.username());
        }
        if (spec.password() != null) {
            xa.setPassword(spec.password());
        }
        return xa;
    }
}
