package io.legacygateway.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.command.CommandBeans;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.testsupport.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * MariaDB lists to a user only the columns it holds a privilege on. An installer that held TRIGGER on the table but no
 * SELECT (the dedicated-definer grants as documented before) saw only the primary key: it installed triggers writing
 * {@code 'new', JSON_OBJECT()} without a column, and both {@code --dry-run} and {@code --install} said every privilege
 * was held. Now the columns the installer sees are compared with those the table declares ({@code SHOW CREATE TABLE},
 * which any privilege on the table allows), and the install is refused naming the SELECT that is missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MariaDbCaptureWithoutSelectOnColumnsIsRefusedTest {

    private final String installer = "gw_inst_" + UUID.randomUUID().toString().substring(0, 8);
    private final String definer = "gw_def_" + UUID.randomUUID().toString().substring(0, 8);
    private final String application = "gw_app_" + UUID.randomUUID().toString().substring(0, 8);
    private String schema;
    private String url;
    private JdbcTemplate admin;
    private GatewayDataSources dataSources;

    @BeforeAll
    void schema() throws SQLException {
        schema = TestDatabase.uniqueName(getClass());
        url = TestDatabase.MARIADB.create(schema);
        admin = new JdbcTemplate(new DriverManagerDataSource(url, "root", ""));
        SchemaScripts.apply(admin.getDataSource(), Dialect.detect(admin.getDataSource()), "outbox.sql");
    }

    @AfterAll
    void dropAccountsAndSchema() throws SQLException {
        dropAccounts();
        TestDatabase.MARIADB.drop(schema);
    }

    @BeforeEach
    void accounts() {
        dropAccounts();
        admin.execute("DROP TABLE IF EXISTS customers");
        admin.execute("CREATE TABLE customers (id BIGINT PRIMARY KEY, sku VARCHAR(20) NOT NULL, qty INT)");
        admin.update("DELETE FROM outbox");
        for (String user : List.of(installer, definer, application)) {
            admin.execute("CREATE USER " + account(user));
        }
        admin.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON " + schema + ".customers TO " + account(application));
    }

    @AfterEach
    void dropTriggers() {
        if (dataSources != null) {
            dataSources.destroy();
            dataSources = null;
        }
        for (String op : List.of("ins", "upd", "del")) {
            admin.execute("DROP TRIGGER IF EXISTS " + schema + ".gw_capture_customers_" + op);
        }
    }

    private void dropAccounts() {
        for (String user : List.of(installer, definer, application)) {
            admin.execute("DROP USER IF EXISTS " + account(user));
        }
    }

    private static String account(String user) {
        return "'" + user + "'@'%'";
    }

    /** The dedicated-definer grants as documented before: the installer holds TRIGGER on the table, no SELECT. */
    private void dedicatedDefinerGrantsWithoutInstallerSelect() {
        admin.execute("GRANT TRIGGER, SELECT ON " + schema + ".customers TO " + account(definer));
        admin.execute("GRANT INSERT ON " + schema + ".outbox TO " + account(definer));
        admin.execute("GRANT TRIGGER ON " + schema + ".customers TO " + account(installer));
        admin.execute("GRANT SELECT ON " + schema + ".outbox TO " + account(installer));
        admin.execute("GRANT SET USER ON *.* TO " + account(installer));
        admin.execute("GRANT SELECT ON mysql.* TO " + account(installer));
    }

    @Test
    void aDedicatedDefinerInstalledByAnInstallerWithoutSelectIsRefusedNamingIt() throws Exception {
        dedicatedDefinerGrantsWithoutInstallerSelect();

        // with TRIGGER alone the installer sees no column at all (the primary key comes from the index statistics)
        String lacks = "'" + installer + "'@'%' lacks SELECT on " + schema + ".customers (columns id, sku, qty)";
        String dryRun = triggers("--dry-run", "--definer=" + definer + "@%");
        assertThat(dryRun).doesNotContain("hold every privilege").contains(lacks);

        String install = triggers("--install", "--definer=" + definer + "@%");
        assertThat(install).contains("refused: nothing was installed").contains(lacks);
        assertThat(triggerCount()).isZero();
    }

    @Test
    void anInstallerWithSelectOnThePrimaryKeyOnlyIsRefusedNamingTheOtherColumns() throws Exception {
        admin.execute("GRANT TRIGGER, SELECT (id) ON " + schema + ".customers TO " + account(installer));
        admin.execute("GRANT INSERT ON " + schema + ".outbox TO " + account(installer));

        String install = triggers("--install");

        assertThat(install).contains("refused: nothing was installed")
                .contains("'" + installer + "'@'%' lacks SELECT on " + schema + ".customers (columns sku, qty)");
        assertThat(triggerCount()).isZero();
    }

    @Test
    void withSelectOnTheTableTheDedicatedDefinersTriggersWriteEveryColumn() throws Exception {
        dedicatedDefinerGrantsWithoutInstallerSelect();
        admin.execute("GRANT SELECT ON " + schema + ".customers TO " + account(installer));

        String install = triggers("--install", "--definer=" + definer + "@%");
        assertThat(install).contains("Installed the capture");

        try (Connection c = DriverManager.getConnection(url, application, "");
             PreparedStatement ps = c.prepareStatement("INSERT INTO customers (id, sku, qty) VALUES (1, 'A-1', 3)")) {
            ps.executeUpdate();
        }
        assertThat(admin.queryForObject("SELECT JSON_EXTRACT(payload, '$.new') FROM outbox", String.class))
                .isEqualTo("{\"id\": 1, \"sku\": \"A-1\", \"qty\": 3}");
    }

    private int triggerCount() {
        return admin.queryForObject("SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?",
                Integer.class, schema);
    }

    /** Runs {@code triggers} as the installer, in fresh sessions (global grants reach a session at login). */
    private String triggers(String... args) throws Exception {
        if (dataSources != null) {
            dataSources.destroy();
        }
        dataSources = new GatewayDataSources(new Binder(new MapConfigurationPropertySource(Map.of(
                "gateway.datasources.legacy.url", url, "gateway.datasources.legacy.username", installer,
                "gateway.datasources.legacy.password", "", "gateway.datasources.legacy.maximum-pool-size", "2")))
                .bind("gateway", GatewayProperties.class).get());
        List<String> all = new ArrayList<>(List.of("--data-source=legacy", "--table=customers",
                "--event-type-prefix=Customer", "--aggregate-type=Customer"));
        all.addAll(List.of(args));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            GatewayCli.execute(new TriggersCommand(), all, CommandBeans.given(dataSources), out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
