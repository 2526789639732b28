package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.outbox.MarkMode;
import io.legacygateway.adapters.outbox.OutboxExplain;
import io.legacygateway.adapters.outbox.OutboxMapping;
import io.legacygateway.adapters.outbox.OutboxStore;
import io.legacygateway.adapters.outbox.PayloadFormat;
import io.legacygateway.adapters.outbox.RejectionLog;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.testsupport.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Failure: {@code relay explain} prepares the claim on a connection of the relay's datasource ({@code PREPARE}, which
 * a rollback does not undo) and its {@code EXPLAIN EXECUTE} fails in the database, aborting the transaction. The
 * prepared statement must still be dropped: else the connection goes back to the pool holding {@code gw_explain}, and
 * every later explain on it fails with "prepared statement already exists". Here the failing statement names a
 * prepared statement that does not exist, once, on the one connection both explains use.
 */
class PostgresRelayExplainThatFailsLeavesNoPreparedStatementTest {

    private static final String SCHEMA =
            TestDatabase.uniqueName(PostgresRelayExplainThatFailsLeavesNoPreparedStatementTest.class);

    private static final AtomicBoolean failNextExplain = new AtomicBoolean();
    private static SingleConnectionDataSource connection;
    private static OutboxStore store;

    @BeforeAll
    static void outboxWithWaitingRows() throws Exception {
        String url = TestDatabase.POSTGRES.create(SCHEMA);
        connection = new SingleConnectionDataSource(url, "postgres", "", true);
        SchemaScripts.apply(connection, Dialect.POSTGRESQL, "outbox.sql");
        SchemaScripts.apply(connection, Dialect.POSTGRESQL, "relay-state.sql");
        new JdbcTemplate(connection).update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload)"
                + " SELECT 'Order', 'order-' || g, 'OrderCreated', '{}' FROM generate_series(1, 3) g");
        TableInspector.Table table = TableInspector.inspect(connection, Dialect.POSTGRESQL,
                new TableName(null, "outbox"), "table");
        OutboxMapping mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.STATUS, Map.of(),
                "PENDING", "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
        FailingExplainDataSource relaysDataSource = new FailingExplainDataSource(connection);
        RejectionLog log = RejectionLog.ifPresent(relaysDataSource, Dialect.POSTGRESQL, "explain", "legacy/outbox",
                "dataSource");
        store = new OutboxStore(relaysDataSource, Dialect.POSTGRESQL, mapping, log, true, false);
    }

    @AfterAll
    static void drop() throws Exception {
        connection.destroy();
        TestDatabase.POSTGRES.drop(SCHEMA);
    }

    @Test
    void aFailedExplainDropsItsPreparedStatementAndTheNextExplainOnTheSameConnectionRuns() {
        failNextExplain.set(true);
        assertThatThrownBy(() -> OutboxExplain.explain(store, 100, Instant.now()))
                .hasMessageContaining("gw_explain_missing");
        assertThat(failNextExplain).as("the explain reached the failing statement").isFalse();

        assertThat(new JdbcTemplate(connection).queryForObject(
                "SELECT count(*) FROM pg_prepared_statements WHERE name = 'gw_explain'", Integer.class))
                .as("prepared statements left in the session").isZero();
        OutboxExplain.Report again = OutboxExplain.explain(store, 100, Instant.now());
        assertThat(again.claimIndex()).isEqualTo("ix_outbox_pending");
        assertThat(again.plans()).extracting(OutboxExplain.Plan::statement).contains("claim");
    }

    /** The connection, whose next {@code EXPLAIN EXECUTE gw_explain} names a prepared statement that does not exist. */
    private static final class FailingExplainDataSource extends DelegatingDataSource {

        FailingExplainDataSource(SingleConnectionDataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection real = super.getConnection();
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("prepareStatement") && args[0] instanceof String sql
                                && sql.startsWith("EXPLAIN EXECUTE gw_explain ")
                                && failNextExplain.compareAndSet(true, false)) {
                            args[0] = sql.replace("gw_explain ", "gw_explain_missing ");
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }
}
