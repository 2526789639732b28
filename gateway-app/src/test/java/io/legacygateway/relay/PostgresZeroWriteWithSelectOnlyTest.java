package io.legacygateway.relay;

import io.legacygateway.adapters.testsupport.DatabaseServers;
import io.legacygateway.testsupport.OnPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** PostgreSQL: a role with USAGE on the application's schema and SELECT on the one table, nothing else. */
@OnPostgres
class PostgresZeroWriteWithSelectOnlyTest extends ZeroWriteWithSelectOnlyContractTest {

    private static final String ADMIN = DatabaseServers.postgresTestUrl();
    private static final String SUFFIX = UUID.randomUUID().toString().substring(0, 8);
    static final String SCHEMA = "gw_app_" + SUFFIX;
    static final String ROLE = "gw_reader_" + SUFFIX;

    @DynamicPropertySource
    static void databases(DynamicPropertyRegistry registry) throws SQLException {
        try (Connection c = DriverManager.getConnection(ADMIN, "postgres", ""); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + SCHEMA);
            s.execute("CREATE TABLE " + SCHEMA + "." + TABLE + " (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                    + " account VARCHAR(64) NOT NULL, kind VARCHAR(64) NOT NULL, body TEXT NOT NULL)");
            s.execute("CREATE ROLE " + ROLE + " LOGIN");
            s.execute("GRANT USAGE ON SCHEMA " + SCHEMA + " TO " + ROLE);
            s.execute("GRANT SELECT ON " + SCHEMA + "." + TABLE + " TO " + ROLE);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(PostgresZeroWriteWithSelectOnlyTest::dropRoleAndSchema));
        String prefix = "gateway.datasources.readonly.";
        registry.add(prefix + "url", () -> ADMIN + "?currentSchema=" + SCHEMA);
        registry.add(prefix + "username", () -> ROLE);
        registry.add(prefix + "password", () -> "");
        registry.add(prefix + "maximum-pool-size", () -> "3");
    }

    static void dropRoleAndSchema() {
        try (Connection c = DriverManager.getConnection(ADMIN, "postgres", ""); Statement s = c.createStatement()) {
            s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '" + ROLE + "'");
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            s.execute("DROP ROLE IF EXISTS " + ROLE);
        } catch (SQLException ignored) {
            // best effort: unique names harm nothing
        }
    }

    @Override
    protected JdbcTemplate application() {
        return new JdbcTemplate(new DriverManagerDataSource(ADMIN + "?currentSchema=" + SCHEMA, "postgres", ""));
    }

    @Override
    protected List<String> grantsOfTheRestrictedUser(JdbcTemplate admin) {
        return admin.queryForList("SELECT table_schema || '.' || table_name || ': ' || privilege_type"
                + " FROM information_schema.role_table_grants WHERE grantee = ?", String.class, ROLE);
    }
}
