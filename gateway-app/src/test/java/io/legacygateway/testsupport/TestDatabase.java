package io.legacygateway.testsupport;

import io.legacygateway.adapters.testsupport.DatabaseServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The real databases the tests run against: PostgreSQL and MariaDB ({@link DatabaseServers}: servers that come with
 * the build, or the machine's when {@code gateway.test.databases=local}, as {@code .ci/run} says) and an in-memory H2
 * as an extra lane. Each test class gets a fresh schema (PostgreSQL) or database (MariaDB) of its own,
 * so classes never see each other's rows.
 */
public enum TestDatabase {
    POSTGRES {
        @Override
        public String create(String name) throws SQLException {
            try (Connection c = DriverManager.getConnection(DatabaseServers.postgresTestUrl(), "postgres", "");
                 Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
                s.execute("CREATE SCHEMA " + name);
            }
            return DatabaseServers.postgresTestUrl() + "?currentSchema=" + name;
        }

        @Override
        public void drop(String name) throws SQLException {
            try (Connection c = DriverManager.getConnection(DatabaseServers.postgresTestUrl(), "postgres", "");
                 Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
            }
        }

        @Override
        public String username() {
            return "postgres";
        }

        @Override
        public String sessionIdQuery() {
            return "SELECT pg_backend_pid()";
        }

        @Override
        public void endSession(JdbcTemplate other, long id) {
            other.queryForObject("SELECT pg_terminate_backend(?)", Boolean.class, (int) id);
        }
    },
    MARIADB {
        @Override
        public String create(String name) throws SQLException {
            try (Connection c = DriverManager.getConnection(DatabaseServers.mariadbUrl("test"), "root", "");
                 Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name);
                s.execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4");
            }
            return DatabaseServers.mariadbUrl(name);
        }

        @Override
        public void drop(String name) throws SQLException {
            try (Connection c = DriverManager.getConnection(DatabaseServers.mariadbUrl("test"), "root", "");
                 Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name);
            }
        }

        @Override
        public String username() {
            return "root";
        }

        @Override
        public String sessionIdQuery() {
            return "SELECT CONNECTION_ID()";
        }

        @Override
        public void endSession(JdbcTemplate other, long id) {
            other.execute("KILL CONNECTION " + id); // KILL takes no bind; the id is the server's own number
        }
    },
    H2 {
        @Override
        public String create(String name) {
            return "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
        }

        @Override
        public void drop(String name) throws SQLException {
            try (Connection c = DriverManager.getConnection("jdbc:h2:mem:" + name, "sa", "");
                 Statement s = c.createStatement()) {
                s.execute("SHUTDOWN");
            }
        }

        @Override
        public String username() {
            return "sa";
        }
    };

    /** Creates an empty schema/database and returns the JDBC URL that makes it the connection's default. */
    public abstract String create(String name) throws SQLException;

    public abstract void drop(String name) throws SQLException;

    public abstract String username();

    /** The statement that returns the session's own id on the server (PostgreSQL and MariaDB only). */
    public String sessionIdQuery() {
        throw new UnsupportedOperationException("no server session to name on " + this);
    }

    /** Ends the session {@code id} on the server, from another session (PostgreSQL and MariaDB only). */
    public void endSession(JdbcTemplate other, long id) {
        throw new UnsupportedOperationException("no server session to end on " + this);
    }

    /**
     * The database {@code testClass} runs against, from its {@link OnPostgres}, {@link OnMariaDb} or {@link OnH2}
     * (or a superclass's).
     *
     * @throws IllegalStateException if the class names none
     */
    public static TestDatabase of(Class<?> testClass) {
        MergedAnnotation<OnDatabase> on = MergedAnnotations.from(testClass, SearchStrategy.TYPE_HIERARCHY)
                .get(OnDatabase.class);
        if (!on.isPresent()) {
            throw new IllegalStateException(testClass.getName() + " names no database: annotate it with @OnPostgres,"
                    + " @OnMariaDb or @OnH2");
        }
        return on.getEnum("value", TestDatabase.class);
    }

    /** A fresh, unique name for a test class's schema or database. */
    public static String uniqueName(Class<?> testClass) {
        String simple = testClass.getSimpleName().replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
        return "gw_" + simple.substring(0, Math.min(simple.length(), 30)) + "_"
                + UUID.randomUUID().toString().substring(0, 8);
    }
}
