package io.legacygateway.adapters.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.capture.CaptureTriggers.Operation;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.adapters.testsupport.ContractDatabaseTest;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.dao.DataAccessException;

/**
 * The DDL of {@link CaptureTriggers} run on the real database, as the {@code triggers} command runs it: once installed,
 * every write the application commits to the captured table leaves exactly one outbox row (aggregate id = the key,
 * event type = prefix + operation, the row images in the payload, status PENDING), a write it rolls back leaves none,
 * only the chosen operations are captured, the snapshot writes one row per existing row in key order, and after
 * {@code remove} nothing is captured any more (removing twice is harmless).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CaptureTriggersInstallAndRemoveContractTest implements ContractDatabaseTest {

    TestSchema schema;

    /** CREATE TABLE customers (id BIGINT primary key, name, email) in the database's types. */
    abstract String createCustomers();

    @BeforeAll
    void createSchema() {
        schema = TestSchema.create(database(), getClass(), GatewaySchema.OUTBOX);
    }

    @AfterAll
    void dropSchema() throws Exception {
        schema.close();
    }

    @BeforeEach
    void tables() {
        schema.jdbc().execute(createCustomers());
        schema.jdbc().update("DELETE FROM outbox");
    }

    @AfterEach
    void dropCustomers() throws SQLException {
        run(ddl(EnumSet.allOf(Operation.class)).remove());
        schema.jdbc().execute("DROP TABLE customers");
    }

    /** The table as the command finds it: qualified with its schema (the PostgreSQL function names it so). */
    private TableInspector.Table inspect(String table) {
        try (Connection c = schema.dataSource().getConnection()) {
            return CaptureGrants.qualified(c, schema.dialect(), TableInspector.inspect(schema.dataSource(),
                    schema.dialect(), new TableName(null, table), "--table"));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private CaptureTriggers.Ddl ddl(Set<Operation> operations) {
        return CaptureTriggers.generate(schema.dialect(), inspect("customers"), inspect("outbox"),
                new CaptureTriggers.Options("Customer", "Customer", operations));
    }

    /** Runs DDL statements one by one on one connection, as the command does. */
    private void run(List<String> statements) throws SQLException {
        try (Connection c = schema.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private int snapshot(CaptureTriggers.Snapshot snapshot) throws SQLException {
        try (Connection c = schema.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement(snapshot.sql())) {
            for (int i = 0; i < snapshot.binds().size(); i++) {
                ps.setString(i + 1, snapshot.binds().get(i));
            }
            return ps.executeUpdate();
        }
    }

    private List<Map<String, Object>> outbox() {
        return schema.jdbc().queryForList("SELECT aggregate_type, aggregate_id, event_type, payload, status"
                + " FROM outbox ORDER BY seq");
    }

    @Test
    void everyCommittedWriteLeavesExactlyOneOutboxRowWithKeyOperationAndImages() throws SQLException {
        run(ddl(EnumSet.allOf(Operation.class)).install());

        schema.jdbc().update("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", 7L, "Ada", "ada@example.org");
        schema.jdbc().update("UPDATE customers SET email = ? WHERE id = ?", "ada@lovelace.org", 7L);
        schema.jdbc().update("DELETE FROM customers WHERE id = ?", 7L);

        List<Map<String, Object>> rows = outbox();
        assertThat(rows).extracting(r -> r.get("event_type"))
                .containsExactly("CustomerInserted", "CustomerUpdated", "CustomerDeleted");
        assertThat(rows).extracting(r -> r.get("aggregate_id")).containsOnly("7");
        assertThat(rows).extracting(r -> r.get("aggregate_type")).containsOnly("Customer");
        assertThat(rows).extracting(r -> r.get("status")).containsOnly("PENDING");
        assertThat(String.valueOf(rows.get(0).get("payload"))).contains("INSERT").contains("ada@example.org")
                .doesNotContain("\"old\"");
        assertThat(String.valueOf(rows.get(1).get("payload"))).contains("UPDATE").contains("ada@example.org")
                .contains("ada@lovelace.org");
        assertThat(String.valueOf(rows.get(2).get("payload"))).contains("DELETE").doesNotContain("\"new\"");
    }

    @Test
    void aWriteThatRollsBackOrFailsLeavesNoOutboxRow() throws SQLException {
        run(ddl(EnumSet.allOf(Operation.class)).install());
        schema.jdbc().update("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", 1L, "Ada", "a@example.org");
        schema.jdbc().update("DELETE FROM outbox");

        assertThatThrownBy(() -> schema.jdbc().update("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", 1L,
                "Ada again", "x@example.org")).isInstanceOf(DataAccessException.class);
        assertThatThrownBy(() -> schema.inTransactionDo(tx -> {
            assertThat(schema.jdbc().update("UPDATE customers SET name = ? WHERE id = ?", "Grace", 1L)).isEqualTo(1);
            throw new IllegalStateException("the application changed its mind");
        })).hasMessageContaining("changed its mind");

        assertThat(outbox()).isEmpty();
    }

    @Test
    void onlyTheChosenOperationsAreCapturedAndRemoveStopsTheCapture() throws SQLException {
        run(ddl(EnumSet.of(Operation.INSERT)).install());
        schema.jdbc().update("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", 1L, "Ada", "a@example.org");
        schema.jdbc().update("UPDATE customers SET name = ? WHERE id = ?", "Ada L.", 1L);
        assertThat(outbox()).extracting(r -> r.get("event_type")).containsExactly("CustomerInserted");

        run(ddl(EnumSet.allOf(Operation.class)).remove());
        run(ddl(EnumSet.allOf(Operation.class)).remove());
        schema.jdbc().update("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)", 2L, "Grace", "g@example.org");
        assertThat(outbox()).hasSize(1);
    }

    @Test
    void theSnapshotWritesOneRowPerExistingRowInKeyOrder() throws SQLException {
        schema.jdbc().update("INSERT INTO customers (id, name, email) VALUES (3, 'C', 'c@x'), (1, 'A', 'a@x'),"
                + " (2, 'B', 'b@x')");
        CaptureTriggers.Ddl ddl = ddl(EnumSet.allOf(Operation.class));
        run(ddl.install());

        assertThat(snapshot(ddl.snapshot())).isEqualTo(3);

        assertThat(outbox()).extracting(r -> r.get("aggregate_id")).containsExactly("1", "2", "3");
        assertThat(outbox()).extracting(r -> r.get("event_type")).containsOnly("Customer" + CaptureTriggers.SNAPSHOT_SUFFIX);
    }
}
