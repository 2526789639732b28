package io.legacygateway.adapters.outbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.testsupport.OnPostgres;
import java.sql.Connection;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * PostgreSQL: a relay's connection prepares the cycle's statements on the server after five runs (pgjdbc's
 * {@code prepareThreshold}). With the default {@code plan_cache_mode} the server plans each of them again in its first
 * five runs, and behind a backlog the planner knows of it kept planning the claim in every cycle: the claim's generic
 * plan, whose limit is unknown, always looked dearer than its custom plan (0.3 ms of the database's CPU per claim of 100
 * behind 100,000 waiting rows). The cycle's setting statement ({@link OutboxStore#claimInOrder}) makes them generic: on
 * one connection, after a dozen cycles behind a backlog, no statement of the cycle has had a custom plan.
 */
@OnPostgres
class PostgresCycleIsPlannedOncePerConnectionTest extends OutboxStoreContract {

    private static final MarkMode MODE = MarkMode.STATUS;
    private static final int CYCLES = 12;
    private static final int BATCH = 100;
    private static final int BACKLOG = 20_000;

    @Test
    void noStatementOfTheCycleIsPlannedAgainInEachCycle() throws Exception {
        // a backlog the planner knows of: behind it the claim's custom plan always looked cheaper than the generic one
        schema.jdbc().update("INSERT INTO " + OutboxFixture.table(MODE) + " (aggregate_type, aggregate_id, event_type,"
                + " payload) SELECT 'Order', 'order-' || (g % 1000), 'OrderCreated', '{}' FROM generate_series(1, ?) g",
                BACKLOG);
        schema.jdbc().execute("ANALYZE " + OutboxFixture.table(MODE));
        try (Connection connection = schema.dataSource().getConnection()) {
            SingleConnectionDataSource one = new SingleConnectionDataSource(connection, true);
            OutboxStore store = new OutboxStore(one, schema.dialect(), outbox.mapping(MODE),
                    new RejectionLog(one, schema.dialect(), OutboxFixture.RELAY, "contract/" + OutboxFixture.table(MODE),
                            "dataSource"), true, false);
            TransactionTemplate cycle = new TransactionTemplate(new DataSourceTransactionManager(one));
            JdbcTemplate jdbc = new JdbcTemplate(one);
            // the pool may hand out the connection that inserted the rows: only what the cycles prepared counts
            Timestamp start = jdbc.queryForObject("SELECT clock_timestamp()", Timestamp.class);
            for (int i = 0; i < CYCLES; i++) {
                cycle.executeWithoutResult(tx -> {
                    List<OutboxRow> rows = store.claim(BATCH, T0);
                    Set<OutboxRow> behind = store.behindOtherRows(rows); // the ordering check's reads run too
                    store.mark(rows.stream().filter(r -> !behind.contains(r)).toList(), T0, "relay-1", List.of());
                });
            }

            assertThat(outbox.count(MODE, "status = 'PUBLISHED'")).isEqualTo(CYCLES * BATCH);
            List<Map<String, Object>> prepared = jdbc.queryForList("SELECT statement, generic_plans, custom_plans"
                    + " FROM pg_prepared_statements WHERE prepare_time >= ? AND statement <> 'COMMIT'", start);
            assertThat(prepared).as("the claim is prepared on the server")
                    .anySatisfy(s -> assertThat((String) s.get("statement")).contains("SKIP LOCKED"));
            assertThat(prepared).as("statements of the cycle planned again in a cycle (custom plans)")
                    .allSatisfy(s -> assertThat(((Number) s.get("custom_plans")).longValue())
                            .as((String) s.get("statement")).isZero());
        }
    }
}
