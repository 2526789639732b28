package io.legacygateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.cli.DdlCommand;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.testsupport.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ScriptUtils;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * {@code initialize-schema: true} on two empty legacy databases, one with only a relay on a legacy table of its own
 * (datasource {@code legacy}) and one with only an inbox consumer ({@code target}): each gets exactly the gateway's
 * tables of what is configured on it (the relay's state; the inbox tables), listed by JDBC metadata. Before, every
 * datasource got the outbox, relay, inbox and audit tables. And the {@code ddl} command's output, run as is on a
 * fresh schema, creates every table the gateway ships. On every database (subclasses).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = "camel.main.routes-include-pattern=classpath:initialize-schema/*.yaml")
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class InitializeSchemaCreatesOnlyWhatIsConfiguredContractTest {

    private static final Set<String> RELAY_TABLES = Set.of("gateway_outbox_position", "gateway_outbox_rejection",
            "gateway_outbox_attempt", "gateway_outbox_cycle");
    private static final Set<String> INBOX_TABLES = Set.of("inbox", "inbox_sequence", "inbox_parked");

    @Autowired
    GatewayDataSources dataSources;

    /**
     * Registers datasources {@code legacy} (with the application's table {@code legacy_events}, of the outbox's
     * layout) and {@code target} (with the consumer's table {@code applied_orders}), both empty otherwise and both
     * with {@code initialize-schema} on.
     */
    static void register(DynamicPropertyRegistry registry, TestDatabase db, Class<?> testClass) {
        DataSource legacy = emptyDatabase(registry, "legacy", db, testClass);
        SchemaScripts.applyOutboxAs(legacy, Dialect.detect(legacy), "legacy_events");
        DataSource target = emptyDatabase(registry, "target", db, testClass);
        new JdbcTemplate(target).execute("CREATE TABLE applied_orders (message_id VARCHAR(255) PRIMARY KEY)");
    }

    /**
     * A relay's own tables on this database: PostgreSQL's attempt log also packs a cycle's attempts in one row, and
     * where XA relays can run, the holder of each XA node id ({@code gateway_xa_node}) is one of them.
     */
    private static Set<String> relayTables(DataSource dataSource) {
        Set<String> tables = new TreeSet<>(RELAY_TABLES);
        Dialect dialect = Dialect.detect(dataSource);
        if (dialect.has("attempt.packed.insert")) {
            tables.add("gateway_outbox_attempt_pack");
        }
        if (dialect.has("xaNode.insert")) {
            tables.add("gateway_xa_node");
        }
        return tables;
    }

    @Test
    void aDatasourceWithOnlyARelayGetsOnlyTheRelaysOwnTables() throws SQLException {
        Set<String> expected = relayTables(dataSources.get("legacy", "test"));
        expected.add("legacy_events");
        assertThat(tables(dataSources.get("legacy", "test"))).isEqualTo(expected);
    }

    @Test
    void aDatasourceWithOnlyAConsumerGetsOnlyTheInboxTables() throws SQLException {
        Set<String> expected = new TreeSet<>(INBOX_TABLES);
        expected.add("applied_orders");
        assertThat(tables(dataSources.get("target", "test"))).isEqualTo(expected);
    }

    @Test
    void theDdlCommandPrintsScriptsThatRunOnAFreshSchema() throws Exception {
        String schema = TestDatabase.uniqueName(getClass());
        try {
            ddlOutputRunsOnAFreshSchema(new DriverManagerDataSource(database().create(schema),
                    database().username(), ""));
        } finally {
            database().drop(schema);
        }
    }

    private void ddlOutputRunsOnAFreshSchema(DataSource fresh) throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        int status = GatewayCli.execute(new DdlCommand(), List.of(Dialect.detect(fresh).id()),
                new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertThat(status).isZero();
        try (Connection c = fresh.getConnection()) {
            ScriptUtils.executeSqlScript(c, new ByteArrayResource(printed.toByteArray(), "ddl output"));
        }
        Set<String> expected = relayTables(fresh);
        expected.addAll(INBOX_TABLES);
        expected.addAll(Set.of("outbox", "gateway_operation_audit"));
        assertThat(tables(fresh)).isEqualTo(expected);

        ByteArrayOutputStream relayOnly = new ByteArrayOutputStream();
        assertThat(GatewayCli.execute(new DdlCommand(), List.of(Dialect.detect(fresh).id(), "relay"),
                new PrintStream(relayOnly, true, StandardCharsets.UTF_8))).isZero();
        assertThat(relayOnly.toString(StandardCharsets.UTF_8)).contains("gateway_outbox_attempt")
                .doesNotContain("CREATE TABLE IF NOT EXISTS inbox").doesNotContain("CREATE TABLE IF NOT EXISTS outbox");
    }

    /** The database this class runs against: its {@code @OnPostgres}, {@code @OnMariaDb} or {@code @OnH2}. */
    TestDatabase database() {
        return TestDatabase.of(getClass());
    }

    private static DataSource emptyDatabase(DynamicPropertyRegistry registry, String name, TestDatabase db,
                                            Class<?> testClass) {
        String schema = TestDatabase.uniqueName(testClass);
        String url;
        try {
            url = db.create(schema);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create " + schema + " on " + db + ": " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                db.drop(schema);
            } catch (SQLException ignored) {
                // best effort: a unique name harms nothing
            }
        }));
        String prefix = "gateway.datasources." + name + ".";
        registry.add(prefix + "url", () -> url);
        registry.add(prefix + "username", db::username);
        registry.add(prefix + "password", () -> "");
        registry.add(prefix + "initialize-schema", () -> "true");
        return new DriverManagerDataSource(url, db.username(), "");
    }

    /** The tables of the connection's own schema (PostgreSQL) or database (MariaDB), in lower case. */
    private static Set<String> tables(DataSource dataSource) throws SQLException {
        Set<String> names = new TreeSet<>();
        try (Connection c = dataSource.getConnection()) {
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getTables(c.getCatalog(), c.getSchema(), "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    names.add(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
                }
            }
        }
        return names;
    }
}
