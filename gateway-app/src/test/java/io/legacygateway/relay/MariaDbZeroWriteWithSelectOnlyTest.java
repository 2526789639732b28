package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.testsupport.DatabaseServers;
import io.legacygateway.testsupport.OnMariaDb;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * MariaDB: a user with SELECT on the one table and the global PROCESS privilege (to see INNODB_TRX), nothing else;
 * and a second user without PROCESS, for which zero-write refuses to start.
 */
@OnMariaDb
class MariaDbZeroWriteWithSelectOnlyTest extends ZeroWriteWithSelectOnlyContractTest {

    private static final String ADMIN = DatabaseServers.mariadbUrl("test");
    private static final String SUFFIX = UUID.randomUUID().toString().substring(0, 8);
    static final String DATABASE = "gw_app_" + SUFFIX;
    static final String READER = "gw_reader_" + SUFFIX;
    static final String NO_PROCESS = "gw_noproc_" + SUFFIX;

    @DynamicPropertySource
    static void databases(DynamicPropertyRegistry registry) throws SQLException {
        try (Connection c = DriverManager.getConnection(ADMIN, "root", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + DATABASE + " CHARACTER SET utf8mb4");
            s.execute("CREATE TABLE " + DATABASE + "." + TABLE + " (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                    + " account VARCHAR(64) NOT NULL, kind VARCHAR(64) NOT NULL, body TEXT NOT NULL,"
                    + " created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), KEY ix_created (created_at))");
            for (String user : List.of(READER, NO_PROCESS)) {
                s.execute("CREATE USER '" + user + "'@'127.0.0.1' IDENTIFIED BY 'reader'");
                s.execute("GRANT SELECT ON " + DATABASE + "." + TABLE + " TO '" + user + "'@'127.0.0.1'");
            }
            s.execute("GRANT PROCESS ON *.* TO '" + READER + "'@'127.0.0.1'");
        }
        Runtime.getRuntime().addShutdownHook(new Thread(MariaDbZeroWriteWithSelectOnlyTest::dropUsersAndDatabase));
        for (String[] ds : List.of(new String[] {"readonly", READER}, new String[] {"noprocess", NO_PROCESS})) {
            String prefix = "gateway.datasources." + ds[0] + ".";
            registry.add(prefix + "url", () -> DatabaseServers.mariadbUrl(DATABASE));
            registry.add(prefix + "username", () -> ds[1]);
            registry.add(prefix + "password", () -> "reader");
            registry.add(prefix + "maximum-pool-size", () -> "3");
        }
    }

    static void dropUsersAndDatabase() {
        try (Connection c = DriverManager.getConnection(ADMIN, "root", ""); Statement s = c.createStatement()) {
            s.execute("DROP USER IF EXISTS '" + READER + "'@'127.0.0.1', '" + NO_PROCESS + "'@'127.0.0.1'");
            s.execute("DROP DATABASE IF EXISTS " + DATABASE);
        } catch (SQLException ignored) {
            // best effort: unique names harm nothing
        }
    }

    @Override
    protected JdbcTemplate application() {
        return new JdbcTemplate(new DriverManagerDataSource(DatabaseServers.mariadbUrl(DATABASE), "root", ""));
    }

    @Override
    protected List<String> grantsOfTheRestrictedUser(JdbcTemplate admin) {
        return admin.queryForList("SHOW GRANTS FOR '" + READER + "'@'127.0.0.1'", String.class).stream()
                .map(g -> g.replaceAll("IDENTIFIED BY PASSWORD '[^']*'", "")).toList();
    }

    @Test
    void withoutTheProcessPrivilegeZeroWriteRefusesToStart() {
        Map<String, Object> p = new HashMap<>();
        p.put("dataSource", "noprocess");
        p.put("stateDataSource", "legacy");
        p.put("table", TABLE);
        p.put("markMode", "ZERO_WRITE");
        p.put("keyColumn", "id");
        p.put("orderColumn", "id");
        p.put("eventId", "ledger-{key}");
        p.put("aggregateType", "Account");
        p.put("aggregateIdColumn", "account");
        p.put("eventTypeColumn", "kind");
        p.put("payloadColumn", "body");
        assertThatThrownBy(() -> relay(unique("noproc"), "queue:x", p))
                .hasMessageContaining("parameter 'markMode': ZERO_WRITE cannot read the commit horizon")
                .hasMessageContaining("PROCESS");
        assertThat(grantsOfTheRestrictedUser(application())).anySatisfy(g -> assertThat(g).contains("PROCESS"));
    }
}
