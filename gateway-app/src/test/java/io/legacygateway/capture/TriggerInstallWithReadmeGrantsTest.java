package io.legacygateway.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
 * The {@code triggers} command run as an installer holding exactly the documented grants
 * ({@code docs/connect-a-database.md}, "Trigger capture"), on a table whose application
 * user holds rights on that table only (as in the issue: the MariaDB install "succeeded", then every write of the
 * application failed with ERROR 1143). Written once, run against each database; each class has its own schema and
 * its own uniquely named accounts, dropped afterwards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TriggerInstallWithReadmeGrantsTest {

    protected final String installer = "gw_inst_" + UUID.randomUUID().toString().substring(0, 8);
    protected final String application = "gw_app_" + UUID.randomUUID().toString().substring(0, 8);
    protected final String definer = "gw_def_" + UUID.randomUUID().toString().substring(0, 8);
    protected String schema;
    private String url;
    private JdbcTemplate admin;
    private GatewayDataSources installerDataSources;

    /** The database this class runs against: its {@code @OnPostgres}, {@code @OnMariaDb} or {@code @OnH2}. */
    protected TestDatabase database() {
        return TestDatabase.of(getClass());
    }

    protected abstract String adminUser();

    /** The accounts (installer, application, definer), without any grant. */
    protected abstract List<String> createAccounts();

    protected abstract List<String> dropAccounts();

    /** What the application user holds: read and write its own table, nothing else. */
    protected abstract List<String> applicationGrants();

    /** The installer's grants exactly as docs/connect-a-database.md ("Trigger capture") lists them. */
    protected abstract List<String> readmeInstallerGrants();

    /** The documented additional grants for {@code --snapshot}. */
    protected abstract List<String> readmeSnapshotGrants();

    /** Takes one of the documented installer grants away; the privilege it names. */
    protected abstract String revokeOneGrant(JdbcTemplate admin);

    /** The capture objects (triggers, functions) of table customers that exist. */
    protected abstract int captureObjects(JdbcTemplate admin);

    /** Sessions of {@code user} waiting for a table lock. */
    protected abstract String sessionsWaitingForALock();

    /** What the refusal says of a table on which the installer holds no privilege at all. */
    protected abstract String refusalOfAnUnprivilegedTable();

    /** The documented grants for a dedicated definer account, which the triggers then run as. */
    protected abstract List<String> readmeDefinerGrants();

    /** How {@code --definer} names it. */
    protected abstract String definerOption();

    /**
     * The documented grants that let the installer name another definer; the privilege the refusal names without
     * them.
     */
    protected abstract List<String> rightToNameADefiner();

    protected abstract String refusalWithoutTheRightToNameADefiner();

    /**
     * Takes the installer's INSERT on the outbox away: with a dedicated definer only the definer needs it (on MariaDB
     * the installer keeps SELECT, to see the outbox's columns).
     */
    protected abstract List<String> installerWithoutOutboxInsert();

    /** The account the installed capture runs as, as the database reports it. */
    protected abstract String definerOfTheCapture(JdbcTemplate admin);

    @BeforeAll
    void schema() throws SQLException {
        schema = TestDatabase.uniqueName(getClass());
        url = database().create(schema);
        admin = new JdbcTemplate(new DriverManagerDataSource(url, adminUser(), ""));
        SchemaScripts.apply(admin.getDataSource(), dialect(), "outbox.sql");
    }

    @AfterAll
    void dropAccountsAndSchema() throws SQLException {
        dropAccounts().forEach(this::quietly);
        database().drop(schema);
    }

    /** Fresh accounts with exactly the documented grants, and fresh sessions (MariaDB applies some grants at login). */
    @BeforeEach
    void freshTableAndAccounts() {
        dropAccounts().forEach(this::quietly);
        createAccounts().forEach(admin::execute);
        admin.execute("DROP TABLE IF EXISTS customers");
        admin.execute("DROP TABLE IF EXISTS inventory");
        admin.execute("CREATE TABLE customers (id BIGINT PRIMARY KEY, sku VARCHAR(20) NOT NULL, qty INT)");
        admin.execute("CREATE TABLE inventory (id BIGINT PRIMARY KEY, sku VARCHAR(20))");
        admin.update("DELETE FROM outbox");
        applicationGrants().forEach(admin::execute);
        readmeInstallerGrants().forEach(admin::execute);
        installerDataSources = dataSources(url, installer);
    }

    @AfterEach
    void removeCapture() {
        installerDataSources.destroy();
        dropCaptureObjects(admin);
    }

    /** Drops what an install left (as the administrator: the installer may not own the table). */
    protected abstract void dropCaptureObjects(JdbcTemplate admin);

    private Dialect dialect() {
        return Dialect.detect(admin.getDataSource());
    }

    private void quietly(String sql) {
        try {
            admin.execute(sql);
        } catch (RuntimeException ignored) {
            // the account was not there
        }
    }

    private record Result(int status, String output) {
    }

    private static GatewayDataSources dataSources(String url, String user) {
        return new GatewayDataSources(new Binder(new MapConfigurationPropertySource(Map.of(
                "gateway.datasources.legacy.url", url, "gateway.datasources.legacy.username", user,
                "gateway.datasources.legacy.password", "", "gateway.datasources.legacy.maximum-pool-size", "2")))
                .bind("gateway", GatewayProperties.class).get());
    }

    /** Runs {@code triggers} as the installer, as the CLI would. */
    private Result asInstaller(String... args) {
        return asInstaller(installerDataSources, args);
    }

    private Result asInstaller(GatewayDataSources dataSources, String... args) {
        List<String> all = new ArrayList<>(List.of("--data-source=legacy", "--table=customers",
                "--event-type-prefix=Customer", "--aggregate-type=Customer"));
        all.addAll(List.of(args));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            int status = GatewayCli.execute(new TriggersCommand(), all, CommandBeans.given(dataSources), out);
            return new Result(status, bytes.toString(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private Connection asApplication() throws SQLException {
        return DriverManager.getConnection(url, application, "");
    }

    /** One statement of the application in its own transaction, as its own user. */
    private void applicationWrites(String sql, Object... values) throws SQLException {
        try (Connection c = asApplication(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i]);
            }
            ps.executeUpdate();
        }
    }

    private List<String> outbox() {
        return admin.queryForList("SELECT event_type, aggregate_id FROM outbox ORDER BY seq").stream()
                .map(r -> r.values().stream().map(String::valueOf).reduce((a, b) -> a + " " + b).orElseThrow())
                .toList();
    }

    @Test
    void withTheReadmeGrantsTheApplicationsWritesStillWorkAndAreCaptured() throws Exception {
        Result r = asInstaller("--install");
        assertThat(r.status()).as(r.output()).isZero();

        applicationWrites("INSERT INTO customers (id, sku, qty) VALUES (?, ?, ?)", 1L, "A-1", 3);
        applicationWrites("UPDATE customers SET qty = ? WHERE id = ?", 2, 1L);
        applicationWrites("DELETE FROM customers WHERE id = ?", 1L);

        assertThat(outbox()).containsExactly("CustomerInserted 1", "CustomerUpdated 1", "CustomerDeleted 1");
    }

    @Test
    void withOneReadmeGrantMissingTheInstallIsRefusedNamingItAndChangesNothing() throws Exception {
        String privilege = revokeOneGrant(admin);

        Result r = asInstaller("--install");

        assertThat(r.status()).as(r.output()).isEqualTo(1);
        assertThat(r.output()).contains("refused: nothing was installed").contains("lacks " + privilege)
                .contains(installer);
        assertThat(captureObjects(admin)).isZero();
        applicationWrites("INSERT INTO customers (id, sku, qty) VALUES (?, ?, ?)", 1L, "A-1", 3);
        assertThat(outbox()).isEmpty();
    }

    @Test
    void aTableTheInstallerHoldsNoPrivilegeOnIsNamedAsSuch() {
        Result r = asInstaller("--install", "--table=inventory");

        assertThat(r.status()).as(r.output()).isEqualTo(1);
        assertThat(r.output()).contains("inventory").contains(refusalOfAnUnprivilegedTable()).contains(installer);
        assertThat(captureObjects(admin)).isZero();
    }

    @Test
    void theSnapshotWritesOneIntentPerExistingRowAndLaterChangesAreCapturedOnce() throws Exception {
        readmeSnapshotGrants().forEach(admin::execute);
        for (long id = 1; id <= 25; id++) {
            admin.update("INSERT INTO customers (id, sku, qty) VALUES (?, ?, ?)", id, "S-" + id, (int) id);
        }

        Result r = asInstaller("--install", "--snapshot");

        assertThat(r.status()).as(r.output()).isZero();
        assertThat(r.output()).contains("snapshot: 25 existing rows written as CustomerSnapshot");
        List<String> rows = outbox();
        assertThat(rows).hasSize(25).allMatch(row -> row.startsWith("CustomerSnapshot "));
        assertThat(rows).extracting(row -> row.substring(row.indexOf(' ') + 1))
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 25).mapToObj(String::valueOf)
                        .toList());
        assertThat(admin.queryForObject("SELECT payload FROM outbox WHERE aggregate_id = '7'", String.class))
                .contains("\"SNAPSHOT\"").contains("S-7");

        applicationWrites("UPDATE customers SET qty = ? WHERE id = ?", 70, 7L);
        assertThat(outbox()).hasSize(26).endsWith("CustomerUpdated 7");
    }

    @Test
    void writesConcurrentWithTheSnapshotInstallAreCapturedExactlyOnce() throws Exception {
        readmeSnapshotGrants().forEach(admin::execute);
        try (Connection before = asApplication()) {
            // a write begun before the install, committed while the installer waits for it
            before.setAutoCommit(false);
            try (PreparedStatement ps = before.prepareStatement("INSERT INTO customers (id, sku, qty) VALUES (100, 'B', 1)")) {
                ps.executeUpdate();
            }
            CompletableFuture<Result> install = CompletableFuture.supplyAsync(() -> asInstaller("--install",
                    "--snapshot"));
            await().atMost(Duration.ofSeconds(20)).until(() -> waiting(installer) == 1);
            // a write begun while the installer waits: it queues behind the installer's lock
            CompletableFuture<Void> during = CompletableFuture.runAsync(() -> {
                try {
                    applicationWrites("INSERT INTO customers (id, sku, qty) VALUES (101, 'D', 1)");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> waiting(application) == 1);
            assertThat(install).isNotDone();
            before.commit();

            Result r = install.get(30, TimeUnit.SECONDS);
            assertThat(r.status()).as(r.output()).isZero();
            during.get(30, TimeUnit.SECONDS);
        }

        assertThat(outbox()).containsExactly("CustomerSnapshot 100", "CustomerInserted 101");
    }

    @Test
    void aDedicatedDefinerRunsTheTriggersOnceTheInstallerMayNameIt() throws Exception {
        readmeDefinerGrants().forEach(admin::execute);
        installerWithoutOutboxInsert().forEach(admin::execute);

        Result refused = asInstaller("--install", "--definer=" + definerOption());
        assertThat(refused.status()).as(refused.output()).isEqualTo(1);
        assertThat(refused.output()).contains(refusalWithoutTheRightToNameADefiner()).contains(installer);
        assertThat(captureObjects(admin)).isZero();

        rightToNameADefiner().forEach(admin::execute);
        // global privileges reach new sessions only
        GatewayDataSources fresh = dataSources(url, installer);
        try {
            Result r = asInstaller(fresh, "--install", "--definer=" + definerOption());
            assertThat(r.status()).as(r.output()).isZero();
        } finally {
            fresh.destroy();
        }

        assertThat(definerOfTheCapture(admin)).isEqualTo(definer);
        applicationWrites("INSERT INTO customers (id, sku, qty) VALUES (?, ?, ?)", 5L, "D-5", 1);
        assertThat(outbox()).containsExactly("CustomerInserted 5");
    }

    private int waiting(String user) {
        return admin.queryForObject(sessionsWaitingForALock(), Integer.class, user);
    }
}
