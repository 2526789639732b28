package io.legacygateway.adapters.testsupport;

import io.legacygateway.adapters.sql.Dialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The databases the adapters' contract tests run against: PostgreSQL and MariaDB ({@link DatabaseServers}: embedded
 * or the machine's), and an in-memory H2
 * as an extra lane. A test class gets a schema (PostgreSQL), a database (MariaDB) or an in-memory database (H2) of its
 * own, named uniquely, so that classes running at the same time never see each other's tables.
 */
public enum ContractDatabase {
    POSTGRESQL(Dialect.POSTGRESQL, "postgres") {
        @Override
        String create(String name) throws SQLException {
            admin(DatabaseServers.postgresTestUrl(), "DROP SCHEMA IF EXISTS " + name + " CASCADE",
                    "CREATE SCHEMA " + name);
            // the application name tells this class's sessions from other tests' in pg_stat_activity
            return DatabaseServers.postgresTestUrl() + "?currentSchema=" + name + "&ApplicationName=" + name;
        }

        @Override
        void drop(String name) throws SQLException {
            admin(DatabaseServers.postgresTestUrl(), "DROP SCHEMA IF EXISTS " + name + " CASCADE");
        }

        @Override
        int lockWaits(JdbcTemplate jdbc, String name) {
            return jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    + " AND application_name = ?", Integer.class, name);
        }
    },
    MARIADB(Dialect.MARIADB, "root") {
        @Override
        String create(String name) throws SQLException {
            admin(DatabaseServers.mariadbUrl("test"), "DROP DATABASE IF EXISTS " + name,
                    "CREATE DATABASE " + name + " CHARACTER SET utf8mb4");
            return DatabaseServers.mariadbUrl(name);
        }

        @Override
        void drop(String name) throws SQLException {
            admin(DatabaseServers.mariadbUrl("test"), "DROP DATABASE IF EXISTS " + name);
        }

        @Override
        int lockWaits(JdbcTemplate jdbc, String name) {
            return jdbc.queryForObject("SELECT count(*) FROM information_schema.INNODB_TRX t"
                    + " JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id"
                    + " WHERE t.trx_state = 'LOCK WAIT' AND p.DB = ?", Integer.class, name);
        }
    },
    H2(Dialect.H2, "sa") {
        @Override
        String create(String name) {
            return "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
        }

        @Override
        void drop(String name) throws SQLException {
            try (Connection c = DriverManager.getConnection("jdbc:h2:mem:" + name, "sa", "");
                 Statement s = c.createStatement()) {
                s.execute("SHUTDOWN");
            }
        }

        @Override
        int lockWaits(JdbcTemplate jdbc, String name) {
            // H2 2.3 leaves BLOCKER_ID empty while an insert waits for another transaction's key: such a session is
            // one still in its statement (in this private in-memory database nothing else runs one for long)
            return jdbc.queryForObject("SELECT count(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID <> SESSION_ID()"
                    + " AND (BLOCKER_ID IS NOT NULL OR EXECUTING_STATEMENT IS NOT NULL)", Integer.class);
        }
    };

    private final Dialect dialect;
    private final String username;

    ContractDatabase(Dialect dialect, String username) {
        this.dialect = dialect;
        this.username = username;
    }

    /** The dialect the gateway must detect on this database. */
    public Dialect dialect() {
        return dialect;
    }

    public String username() {
        return username;
    }

    /**
     * The database {@code testClass} runs against, from its {@link OnPostgres}, {@link OnMariaDb} or {@link OnH2}
     * (or a superclass's).
     *
     * @throws IllegalStateException if the class names none
     */
    public static ContractDatabase of(Class<?> testClass) {
        MergedAnnotation<OnDatabase> on = MergedAnnotations.from(testClass, SearchStrategy.TYPE_HIERARCHY)
                .get(OnDatabase.class);
        if (!on.isPresent()) {
            throw new IllegalStateException(testClass.getName() + " names no database: annotate it with @OnPostgres,"
                    + " @OnMariaDb or @OnH2");
        }
        return on.getEnum("value", ContractDatabase.class);
    }

    /** Creates an empty schema and returns the JDBC URL that makes it the connection's default. */
    abstract String create(String name) throws SQLException;

    abstract void drop(String name) throws SQLException;

    /** Sessions of this test class's schema that wait for a lock another transaction holds. */
    abstract int lockWaits(JdbcTemplate jdbc, String name);

    private static void admin(String url, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, url.contains("postgresql") ? "postgres" : "root", "");
             Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }
}
