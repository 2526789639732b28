package io.legacygateway.adapters.outbox.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.testsupport.OnPostgres;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Failure: {@code relay explain} prepares the claim on a connection of the relay's datasource ({@code PREPARE}, which
 * a rollback does not undo) and its {@code EXPLAIN EXECUTE} fails in the database, aborting the transaction. The
 * prepared statement must still be dropped: else the connection goes back to the pool holding {@code gw_explain}, and
 * every later explain on it fails with "prepared statement already exists". Here the failing statement names a
 * prepared statement that does not exist, once, on the one connection every explain uses.
 */
@OnPostgres
class PostgresRelayExplainThatFailsLeavesNoPreparedStatementTest extends OutboxStoreContract {

    private static final MarkMode MODE = MarkMode.STATUS;

    @Test
    void aFailedExplainDropsItsPreparedStatementAndTheNextExplainOnTheSameConnectionRuns() throws Exception {
        schema.jdbc().update("INSERT INTO " + OutboxFixture.table(MODE) + " (aggregate_type, aggregate_id, event_type,"
                + " payload) SELECT 'Order', 'order-' || g, 'OrderCreated', '{}' FROM generate_series(1, 3) g");
        AtomicBoolean failNextExplain = new AtomicBoolean();
        try (Connection connection = schema.dataSource().getConnection()) {
            SingleConnectionDataSource one = new SingleConnectionDataSource(connection, true);
            DataSource failing = failingExplain(one, failNextExplain);
            OutboxStore store = new OutboxStore(failing, schema.dialect(), outbox.mapping(MODE),
                    new RejectionLog(failing, schema.dialect(), OutboxFixture.RELAY,
                            "contract/" + OutboxFixture.table(MODE), "dataSource"), true, false);
            OutboxExplain.Report before = OutboxExplain.explain(store, 100, Instant.now());

            failNextExplain.set(true);
            assertThatThrownBy(() -> OutboxExplain.explain(store, 100, Instant.now()))
                    .hasMessageContaining("gw_explain_missing");
            assertThat(failNextExplain).as("the explain reached the failing statement").isFalse();

            assertThat(new JdbcTemplate(one).queryForObject(
                    "SELECT count(*) FROM pg_prepared_statements WHERE name = 'gw_explain'", Integer.class))
                    .as("prepared statements left in the session").isZero();
            OutboxExplain.Report again = OutboxExplain.explain(store, 100, Instant.now());
            assertThat(again.claimIndex()).isNotNull().isEqualTo(before.claimIndex());
            assertThat(again.plans()).extracting(OutboxExplain.Plan::statement).contains("claim");
        }
    }

    /** {@code one}, whose next {@code EXPLAIN EXECUTE gw_explain} after {@code failNext} is set names a missing one. */
    private static DataSource failingExplain(SingleConnectionDataSource one, AtomicBoolean failNext) {
        return new DelegatingDataSource(one) {
            @Override
            public Connection getConnection() throws SQLException {
                Connection real = super.getConnection();
                return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                            if (method.getName().equals("prepareStatement") && args[0] instanceof String sql
                                    && sql.startsWith("EXPLAIN EXECUTE gw_explain ")
                                    && failNext.compareAndSet(true, false)) {
                                args[0] = sql.replace("gw_explain ", "gw_explain_missing ");
                            }
                            try {
                                return method.invoke(real, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }
        };
    }
}
