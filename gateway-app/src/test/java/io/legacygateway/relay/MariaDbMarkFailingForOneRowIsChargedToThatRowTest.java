package io.legacygateway.relay;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbMarkFailingForOneRowIsChargedToThatRowTest extends MarkFailingForOneRowIsChargedToThatRowContractTest {

    private static final String USER = "gw_marker_" + UUID.randomUUID().toString().substring(0, 8);

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        Class<?> test = MariaDbMarkFailingForOneRowIsChargedToThatRowTest.class;
        LegacyDatabases.register(registry, "legacy", TestDatabase.MARIADB, test);
        String url = LegacyDatabases.directUrl("legacy", TestDatabase.MARIADB, test);
        DriverManagerDataSource admin = new DriverManagerDataSource(url, "root", "");
        SchemaScripts.apply(admin, Dialect.MARIADB, "outbox.sql");
        JdbcTemplate jdbc = new JdbcTemplate(admin);
        jdbc.execute("CREATE USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY 'marker'");
        jdbc.execute("GRANT SELECT, UPDATE ON outbox TO '" + USER + "'@'127.0.0.1'");
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
                jdbc.execute("DROP USER IF EXISTS '" + USER + "'@'127.0.0.1'")));
        registry.add("gateway.datasources.restricted.url", () -> url);
        registry.add("gateway.datasources.restricted.username", () -> USER);
        registry.add("gateway.datasources.restricted.password", () -> "marker");
        registry.add("gateway.datasources.restricted.maximum-pool-size", () -> "2");
    }

    @Override
    protected void createRefusingTrigger(String event, String when) {
        rows.jdbc().execute("CREATE TRIGGER refuse_mark BEFORE " + event + " ON outbox FOR EACH ROW BEGIN IF " + when
                + " THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '" + REFUSAL + "'; END IF; END");
    }

    @Override
    protected void dropRefusingTrigger() {
        rows.jdbc().execute("DROP TRIGGER IF EXISTS refuse_mark");
    }

    @Override
    protected String createFlagTable() {
        return "CREATE TABLE " + FLAG_TABLE + " (seq BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                + " id VARCHAR(64) NOT NULL, aggregate_type VARCHAR(255) NOT NULL, aggregate_id VARCHAR(255) NOT NULL,"
                + " event_type VARCHAR(255) NOT NULL, payload LONGTEXT NOT NULL, status CHAR(1) NOT NULL,"
                + " locked_by VARCHAR(8)) ENGINE=InnoDB";
    }
}
