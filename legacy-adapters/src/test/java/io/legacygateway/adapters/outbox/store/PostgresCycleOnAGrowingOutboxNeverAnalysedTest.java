package io.legacygateway.adapters.outbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.testsupport.OnPostgres;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Failure: a relay falls further and further behind a steady write rate on an outbox nobody analyses (autovacuum off,
 * as on many legacy servers). The cycle's statements are planned once per connection (generic plans) and a generic plan
 * is kept until the table's statistics change, which there is never: the mark planned while the table was small read
 * the whole table, and went on doing so as it grew (165 ms per mark of 100 rows at 60,000 rows; the bench's relay fell
 * 5 s behind writers at 2,000 rows/s). On one connection, cycles run while the table is small, then the table grows by
 * {@value #HISTORY} rows without statistics (never taken, or taken once while it was small), and no statement of the
 * later cycles may scan the whole table: the backend's counters ({@code pg_stat_xact_user_tables}, not yet reported)
 * grow by no sequential scan of it in any cycle.
 */
@OnPostgres
class PostgresCycleOnAGrowingOutboxNeverAnalysedTest extends OutboxStoreContract {

    private static final int BATCH = 100;
    /** Cycles on the small table: more than the five runs after which pgjdbc prepares a statement on the server. */
    private static final int SMALL_CYCLES = 6;
    private static final int LATER_CYCLES = 4;
    private static final int HISTORY = 50_000;

    /**
     * @param analysedWhileSmall whether the table's statistics were taken once, while it was small (as an ANALYZE
     *                           after an install leaves them), else never
     */
    @ParameterizedTest(name = "{0}, analysed while small: {1}")
    @CsvSource({"STATUS, false", "TIMESTAMP, false", "DELETE, false", "STATUS, true"})
    void noCycleScansTheWholeTableOnceItHasGrown(MarkMode mode, boolean analysedWhileSmall) throws Exception {
        String table = OutboxFixture.table(mode);
        schema.jdbc().execute("ALTER TABLE " + table + " SET (autovacuum_enabled = false)");
        insertPending(table, SMALL_CYCLES * BATCH);
        if (analysedWhileSmall) {
            schema.jdbc().execute("ANALYZE " + table);
        }
        try (Connection connection = schema.dataSource().getConnection()) {
            SingleConnectionDataSource one = new SingleConnectionDataSource(connection, true);
            OutboxStore store = new OutboxStore(one, schema.dialect(), outbox.mapping(mode),
                    new RejectionLog(one, schema.dialect(), OutboxFixture.RELAY, "contract/" + table, "dataSource"),
                    true, true);
            TransactionTemplate cycle = new TransactionTemplate(new DataSourceTransactionManager(one));
            JdbcTemplate jdbc = new JdbcTemplate(one);
            for (int i = 0; i < SMALL_CYCLES; i++) {
                runCycle(cycle, jdbc, store, table);
            }

            // the table grows as a legacy outbox does, never analysed: published history (DELETE mode: dead rows), then
            // new rows
            schema.jdbc().update("INSERT INTO " + table + " (aggregate_type, aggregate_id, event_type, payload)"
                    + " SELECT 'Order', 'order-' || (g % 1000), 'OrderCreated', '{\"note\":\"' || repeat('x', 300)"
                    + " || '\"}' FROM generate_series(1, ?) g", HISTORY);
            if (mode == MarkMode.STATUS) {
                schema.jdbc().update("UPDATE " + table + " SET status = 'PUBLISHED' WHERE status = 'PENDING'");
            } else if (mode == MarkMode.TIMESTAMP) {
                schema.jdbc().update("UPDATE " + table + " SET published_at = CURRENT_TIMESTAMP"
                        + " WHERE published_at IS NULL");
            } else {
                schema.jdbc().update("DELETE FROM " + table); // their pages stay until a vacuum nobody runs
            }
            insertPending(table, LATER_CYCLES * BATCH);
            assertThat(schema.jdbc().queryForObject("SELECT reltuples FROM pg_class WHERE oid = CAST(? AS regclass)",
                    Double.class, schema.name() + "." + table)).as("the statistics know nothing of the growth")
                    .isLessThan(SMALL_CYCLES * BATCH + 1);

            List<Long> scans = new ArrayList<>();
            for (int i = 0; i < LATER_CYCLES; i++) {
                scans.add(runCycle(cycle, jdbc, store, table));
            }
            assertThat(scans).as("sequential scans of %s in each cycle after it grew", table)
                    .containsOnly(0L);
        }
        int left = mode == MarkMode.DELETE ? outbox.count(mode, "1 = 1") : outbox.count(mode,
                mode == MarkMode.STATUS ? "status = 'PENDING'" : "published_at IS NULL");
        assertThat(left).as("rows left to publish").isZero();
    }

    private void insertPending(String table, int rows) {
        schema.jdbc().update("INSERT INTO " + table + " (aggregate_type, aggregate_id, event_type, payload)"
                + " SELECT 'Order', 'order-' || (g % 1000), 'OrderCreated', '{}' FROM generate_series(1, ?) g", rows);
    }

    /** One claim-check-mark cycle of {@value #BATCH} rows; returns the sequential scans of the table it made. */
    private static long runCycle(TransactionTemplate cycle, JdbcTemplate jdbc, OutboxStore store, String table) {
        Long scans = cycle.execute(tx -> {
            // the backend's counters for the table, which it reports now and then: the cycle's are what it adds to them
            long before = seqScans(jdbc, table);
            List<OutboxRow> rows = store.claim(BATCH, T0);
            assertThat(rows).hasSize(BATCH);
            Set<OutboxRow> behind = store.behindOtherRows(rows);
            assertThat(behind).isEmpty();
            store.mark(rows, T0, "relay-1", List.of());
            return seqScans(jdbc, table) - before;
        });
        return scans == null ? 0 : scans;
    }

    private static long seqScans(JdbcTemplate jdbc, String table) {
        Long n = jdbc.queryForObject("SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = ?", Long.class,
                table);
        return n == null ? 0 : n;
    }
}
