package io.legacygateway.adapters.testsupport;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.SchemaScripts;
import java.sql.SQLException;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One test class's own schema on a {@link ContractDatabase}, with a small connection pool on it (enough for two
 * concurrent transactions and a probe). {@link #close} drops the schema.
 */
public final class TestSchema implements AutoCloseable {

    private final ContractDatabase database;
    private final String name;
    private final String url;
    private final HikariDataSource dataSource;
    private final JdbcTemplate jdbc;
    private final DataSourceTransactionManager transactions;

    private TestSchema(ContractDatabase database, String name, String url) {
        this.database = database;
        this.name = name;
        this.url = url;
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(database.username());
        config.setPassword("");
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(0);
        config.setPoolName(name);
        this.dataSource = new HikariDataSource(config);
        this.jdbc = new JdbcTemplate(dataSource);
        this.transactions = new DataSourceTransactionManager(dataSource);
    }

    /** A fresh schema for {@code testClass}, with the given parts of the gateway's DDL applied. */
    public static TestSchema create(ContractDatabase database, Class<?> testClass, GatewaySchema... parts) {
        String simple = testClass.getSimpleName().replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
        String name = "gwa_" + simple.substring(0, Math.min(simple.length(), 40)) + "_"
                + UUID.randomUUID().toString().substring(0, 8);
        try {
            TestSchema schema = new TestSchema(database, name, database.create(name));
            for (GatewaySchema part : parts) {
                SchemaScripts.apply(schema.dataSource, database.dialect(), part);
            }
            return schema;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test schema " + name + " on " + database
                    + " (is the database running?): " + e.getMessage(), e);
        }
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public Dialect dialect() {
        return database.dialect();
    }

    public ContractDatabase database() {
        return database;
    }

    /** The JDBC URL of the schema (or MariaDB database); user {@code database().username()}, no password. */
    public String url() {
        return url;
    }

    /** The schema's (or MariaDB database's) name. */
    public String name() {
        return name;
    }

    public JdbcTemplate jdbc() {
        return jdbc;
    }

    /** Runs {@code work} in one transaction on this schema's datasource: committed unless it throws. */
    public <T> T inTransaction(TransactionCallback<T> work) {
        return new TransactionTemplate(transactions).execute(work);
    }

    /** Runs {@code work} in one transaction on this schema's datasource: committed unless it throws. */
    public void inTransactionDo(Consumer<TransactionStatus> work) {
        new TransactionTemplate(transactions).executeWithoutResult(work);
    }

    /** Runs {@code work} in one transaction of the given isolation on this schema's datasource. */
    public <T> T inTransaction(int isolation, TransactionCallback<T> work) {
        TransactionTemplate tx = new TransactionTemplate(transactions);
        tx.setIsolationLevel(isolation);
        return tx.execute(work);
    }

    /** Sessions on this schema waiting for a lock another transaction holds. */
    public int lockWaits() {
        return database.lockWaits(jdbc, name);
    }

    @Override
    public void close() throws SQLException {
        dataSource.close();
        database.drop(name);
    }
}
