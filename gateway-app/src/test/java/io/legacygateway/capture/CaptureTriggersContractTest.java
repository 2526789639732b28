package io.legacygateway.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.command.CommandBeans;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.testsupport.QueueProbe;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.TextMessage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * Trigger capture ({@code triggers} command), written once and run against each database: the application keeps its
 * own SQL, and every write it commits leaves exactly one outbox row (with the key, the operation and the row images),
 * every write it rolls back leaves none. Then the ordinary relay publishes the captured rows.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class CaptureTriggersContractTest {

    private final ObjectMapper json = new ObjectMapper();

    @Autowired
    ApplicationContext context;
    @Autowired
    GatewayDataSources dataSources;
    @Autowired
    OutboxRelayFactory relays;
    @Autowired
    ConnectionFactory connectionFactory;

    protected JdbcTemplate jdbc;
    protected DataSource legacy;

    /** CREATE TABLE customers (id BIGINT primary key, name, email, avatar binary) in the database's types. */
    protected abstract String createCustomers();

    /** A table without a primary key. */
    protected abstract String createVisits();

    @BeforeEach
    void tables() {
        legacy = dataSources.get("legacy", "test");
        jdbc = new JdbcTemplate(legacy);
        command("--data-source=legacy", "--table=customers", "--remove");
        jdbc.execute("DROP TABLE IF EXISTS customers");
        jdbc.execute("DROP TABLE IF EXISTS visits");
        jdbc.execute(createCustomers());
        jdbc.execute(createVisits());
        jdbc.update("DELETE FROM outbox");
    }

    /** Runs the command as the CLI would, returning exit status and output. */
    protected Result command(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            int status = GatewayCli.execute(new TriggersCommand(), List.of(args), CommandBeans.of(context), out);
            return new Result(status, bytes.toString(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    protected record Result(int status, String output) {
    }

    private Result install(String... extra) {
        List<String> args = new ArrayList<>(List.of("--data-source=legacy", "--table=customers",
                "--event-type-prefix=Customer", "--aggregate-type=Customer", "--install"));
        args.addAll(List.of(extra));
        Result r = command(args.toArray(String[]::new));
        assertThat(r.status()).as(r.output()).isZero();
        return r;
    }

    /** The legacy application's own statements, unchanged by the capture. */
    private void applicationWrites(String sql, Object... values) throws SQLException {
        try (Connection c = legacy.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < values.length; i++) {
                    ps.setObject(i + 1, values[i]);
                }
                ps.executeUpdate();
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        }
    }

    private List<Map<String, Object>> outbox() {
        return jdbc.queryForList("SELECT aggregate_type, aggregate_id, event_type, payload, status FROM outbox"
                + " ORDER BY seq");
    }

    private static String text(Map<String, Object> row, String column) {
        return String.valueOf(row.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(column)).findFirst()
                .orElseThrow().getValue());
    }

    @Test
    void aDryRunPrintsTheDdlAndChangesNothing() throws Exception {
        Result r = command("--data-source=legacy", "--table=customers", "--dry-run");

        assertThat(r.status()).isZero();
        assertThat(r.output()).contains("nothing was changed").containsIgnoringCase("CREATE TRIGGER")
                .contains("gw_capture_");
        applicationWrites("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", 1L, "Ada", "ada@example.org");
        assertThat(outbox()).isEmpty();
    }

    @Test
    void aCommittedWriteLeavesExactlyOneOutboxRowWithKeyOperationAndImages() throws Exception {
        install();

        applicationWrites("INSERT INTO customers (id, name, email, avatar) VALUES (?, ?, ?, ?)", 7L, "Ada \"Countess\"",
                "ada@example.org", new byte[] {1, 2, 3});
        applicationWrites("UPDATE customers SET email = ? WHERE id = ?", "ada@lovelace.org", 7L);
        applicationWrites("DELETE FROM customers WHERE id = ?", 7L);

        List<Map<String, Object>> rows = outbox();
        assertThat(rows).hasSize(3);
        assertThat(rows).extracting(r -> text(r, "event_type"))
                .containsExactly("CustomerInserted", "CustomerUpdated", "CustomerDeleted");
        assertThat(rows).extracting(r -> text(r, "aggregate_id")).containsOnly("7");
        assertThat(rows).extracting(r -> text(r, "aggregate_type")).containsOnly("Customer");
        assertThat(rows).extracting(r -> text(r, "status")).containsOnly("PENDING");

        JsonNode inserted = json.readTree(text(rows.get(0), "payload"));
        assertThat(inserted.get("operation").asText()).isEqualTo("INSERT");
        assertThat(inserted.get("table").asText()).isEqualToIgnoringCase("customers");
        assertThat(field(inserted.get("new"), "name").asText()).isEqualTo("Ada \"Countess\"");
        assertThat(inserted.has("old")).isFalse();
        JsonNode updated = json.readTree(text(rows.get(1), "payload"));
        assertThat(field(updated.get("old"), "email").asText()).isEqualTo("ada@example.org");
        assertThat(field(updated.get("new"), "email").asText()).isEqualTo("ada@lovelace.org");
        JsonNode deleted = json.readTree(text(rows.get(2), "payload"));
        assertThat(field(deleted.get("old"), "id").asLong()).isEqualTo(7L);
        assertThat(deleted.has("new")).isFalse();
    }

    @Test
    void aFailedOrRolledBackWriteLeavesNoOutboxRow() throws Exception {
        install();
        applicationWrites("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", 1L, "Ada", "ada@example.org");
        jdbc.update("DELETE FROM outbox");

        // the application's write fails (duplicate key) and it rolls back
        assertThatThrownBy(() -> applicationWrites("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", 1L,
                "Ada again", "x@example.org")).isInstanceOf(SQLException.class);
        // the application changes its mind after a successful statement
        try (Connection c = legacy.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("UPDATE customers SET name = ? WHERE id = ?")) {
                ps.setString(1, "Grace");
                ps.setLong(2, 1L);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            c.rollback();
        }

        assertThat(outbox()).isEmpty();
        assertThat(jdbc.queryForObject("SELECT name FROM customers WHERE id = 1", String.class)).isEqualTo("Ada");
    }

    @Test
    void onlyTheChosenOperationsAreCapturedAndRemoveStopsTheCapture() throws Exception {
        install("--operations=INSERT");
        applicationWrites("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", 1L, "Ada", "ada@example.org");
        applicationWrites("UPDATE customers SET name = ? WHERE id = ?", "Ada L.", 1L);
        assertThat(outbox()).extracting(r -> text(r, "event_type")).containsExactly("CustomerInserted");

        Result removed = command("--data-source=legacy", "--table=customers", "--remove");
        assertThat(removed.status()).isZero();
        applicationWrites("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", 2L, "Grace", "grace@example.org");
        assertThat(outbox()).hasSize(1);
    }

    @Test
    void theRelayPublishesTheCapturedChanges() throws Exception {
        install();
        applicationWrites("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", 3L, "Ada", "ada@example.org");
        applicationWrites("UPDATE customers SET name = ? WHERE id = ?", "Ada L.", 3L);
        String queue = "it.capture." + UUID.randomUUID().toString().substring(0, 8);
        OutboxRelay relay = relays.create(Map.of("relay", "capture-" + UUID.randomUUID().toString().substring(0, 8),
                "dataSource", "legacy", "destination", "queue:" + queue));

        assertThat(relay.drain(() -> false)).isEqualTo(2);
        EnvelopeCodec codec = new EnvelopeCodec();
        List<EventEnvelope> events = new ArrayList<>();
        for (TextMessage m : new QueueProbe(connectionFactory).drain(queue)) {
            events.add(codec.read(m.getText()));
        }
        assertThat(events).extracting(EventEnvelope::type).containsExactly("CustomerInserted", "CustomerUpdated");
        assertThat(events).extracting(EventEnvelope::subject).containsOnly("3");
        assertThat(field(events.get(1).data().get("new"), "name").asText()).isEqualTo("Ada L.");
    }

    @Test
    void aTableWithoutPrimaryKeyIsRefusedWithAClearMessage() {
        Result r = command("--data-source=legacy", "--table=visits", "--install");

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.output()).contains("refused: table '").contains("has no primary key");
    }

    @Test
    void valuesThatCannotBeWrittenSafelyIntoDdlAreRefused() {
        Result r = command("--data-source=legacy", "--table=customers", "--event-type-prefix=x'; DROP TABLE y; --",
                "--dry-run");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.output()).contains("--event-type-prefix").contains("trigger DDL cannot bind values");
        assertThat(command("--table=customers", "--install", "--remove").status()).isEqualTo(2);
        assertThat(command("--data-source=legacy", "--table=customers", "--dry-run", "--colour=red").output())
                .contains("unknown argument '--colour=red'");
    }

    /** A field of a row image, whatever case the database gives column names (H2: upper case). */
    private static JsonNode field(JsonNode image, String name) {
        for (var it = image.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (f.equalsIgnoreCase(name)) {
                return image.get(f);
            }
        }
        throw new AssertionError("no field " + name + " in " + image);
    }
}
