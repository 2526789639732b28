package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.store.OutboxExplain;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import io.legacygateway.adapters.outbox.store.OutboxStore;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.outbox.store.RejectionLog;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.testsupport.TestDatabase;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Failure: a relay falls behind (a broker outage, a burst) on a table whose statistics were taken while nothing waited,
 * the usual state of an outbox, or were never taken. Before the fix PostgreSQL believed the waiting rows to be none
 * and, for each claimed row, read every waiting row to look for an earlier retrying one of its aggregate (1.3 s per
 * claim of 100 behind 20,000 waiting rows), or read and sorted all of them: a relay that slows down as its backlog
 * grows and, in the bench's latency run, fell 30 s behind at 1,000 events/s. Now the claim runs under the dialect's
 * {@code outbox.claim.inOrder} setting and finds retrying rows through the index of them, so it reads the head of the
 * backlog only. With failedRowPolicy BLOCK_AGGREGATE the search for an earlier FAILED row read every waiting row per
 * claimed row in the same way, and the ordering check walked the table from its first row: both now go through the
 * aggregate's index. Asserts the rows claimed and the pages the claim (and with BLOCK_AGGREGATE the ordering check)
 * touched (EXPLAIN ANALYZE's buffers), not time; autovacuum is off for the table.
 */
class PostgresClaimBehindABacklogWithStatisticsOfAnEmptyOutboxTest {

    private static final String SCHEMA = TestDatabase.uniqueName(
            PostgresClaimBehindABacklogWithStatisticsOfAnEmptyOutboxTest.class);
    private static final int HISTORY = 30_000;
    private static final int BACKLOG = 20_000;
    private static final int BATCH = 100;
    /** The claim of the head of the backlog touches a few hundred pages; the plans it replaced, hundreds of thousands. */
    private static final int PAGES = 2_000;
    /**
     * Events of about 1 KiB, as the bench's: reading and sorting every waiting row then touches more pages than the
     * bound (20,000 rows of '{}' would fit in fewer).
     */
    private static final String PAYLOAD = "'{\"note\":\"' || repeat('x', 900) || '\"}'";
    private static final Pattern BUFFERS = Pattern.compile("Buffers: shared(?: hit=(\\d+))?(?: read=(\\d+))?");

    private static DriverManagerDataSource ds;
    private static JdbcTemplate jdbc;
    private static TransactionTemplate tx;

    @BeforeAll
    static void schema() throws Exception {
        ds = new DriverManagerDataSource(TestDatabase.POSTGRES.create(SCHEMA), "postgres", "");
        jdbc = new JdbcTemplate(ds);
        tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
        SchemaScripts.apply(ds, Dialect.POSTGRESQL, "relay-state.sql");
    }

    @AfterAll
    static void drop() throws Exception {
        TestDatabase.POSTGRES.drop(SCHEMA);
    }

    @BeforeEach
    void freshOutboxWithItsHistory() {
        jdbc.execute("DROP TABLE IF EXISTS outbox");
        jdbc.update("DELETE FROM gateway_outbox_rejection");
        SchemaScripts.apply(ds, Dialect.POSTGRESQL, "outbox.sql");
        jdbc.execute("ALTER TABLE outbox SET (autovacuum_enabled = false)");
        jdbc.update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, status, published_at)"
                + " SELECT 'Order', 'order-' || (g % 1000), 'OrderCreated', " + PAYLOAD + ", 'PUBLISHED', now()"
                + " FROM generate_series(1, ?) g", HISTORY);
    }

    @Test
    void statisticsTakenWhileNothingWaited() {
        jdbc.execute("ANALYZE outbox");
        backlog();
        assertClaimsTheHeadOfTheBacklog(store(), firstWaiting(BATCH));
    }

    @Test
    void statisticsNeverTaken() {
        backlog();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM pg_stats WHERE tablename = 'outbox' AND schemaname = ?",
                Integer.class, SCHEMA)).as("no statistics were gathered").isZero();
        assertClaimsTheHeadOfTheBacklog(store(), firstWaiting(BATCH));
    }

    @Test
    void aRetryingRowHoldsBackItsAggregateOnlyWithStatisticsTakenWhileNothingWaited() {
        jdbc.execute("ANALYZE outbox");
        backlog();
        long retrying = jdbc.queryForObject("SELECT min(seq) FROM outbox WHERE status = 'PENDING'", Long.class);
        jdbc.update("UPDATE outbox SET retry_count = 1, next_retry_at = now() + interval '1 hour' WHERE seq = ?",
                retrying);
        List<Long> expected = jdbc.queryForList("SELECT seq FROM outbox o WHERE status = 'PENDING' AND aggregate_id"
                + " <> (SELECT aggregate_id FROM outbox WHERE seq = ?) ORDER BY seq LIMIT ?", Long.class, retrying,
                BATCH);
        assertClaimsTheHeadOfTheBacklog(store(), expected);
    }

    @Test
    void blockAggregateFailedRowsHoldBackTheirAggregatesOnlyWithStatisticsTakenWhileNothingWaited() {
        jdbc.execute("ANALYZE outbox");
        backlog();
        assertBlockAggregateClaimsTheHeadOfTheBacklog();
    }

    @Test
    void blockAggregateFailedRowsHoldBackTheirAggregatesOnlyWithStatisticsNeverTaken() {
        backlog();
        assertBlockAggregateClaimsTheHeadOfTheBacklog();
    }

    /**
     * failedRowPolicy BLOCK_AGGREGATE, with a row parked by its status and one parked in the rejection log (its status
     * still pending) at the head of the backlog: the claim skips their aggregates and the ordering check reads neither
     * the waiting rows once per claimed row nor the table's history (before: 565 ms and 292,000 pages for the claim,
     * 4,400 pages for the ordering check, which walked the primary key from the table's first row).
     */
    private static void assertBlockAggregateClaimsTheHeadOfTheBacklog() {
        List<Map<String, Object>> head = jdbc.queryForList("SELECT seq, aggregate_id FROM outbox WHERE status ="
                + " 'PENDING' ORDER BY seq LIMIT 2");
        long failed = ((Number) head.get(0).get("seq")).longValue();
        long parkedInLog = ((Number) head.get(1).get("seq")).longValue();
        jdbc.update("UPDATE outbox SET status = 'FAILED', last_error = 'refused' WHERE seq = ?", failed);
        jdbc.update("INSERT INTO gateway_outbox_rejection (source_table, row_key, relay, reason, state)"
                + " VALUES ('legacy/outbox', ?, 'plan', 'its FAILED write was refused', 'FAILED')",
                Long.toString(parkedInLog));
        List<Long> expected = jdbc.queryForList("SELECT seq FROM outbox WHERE status = 'PENDING' AND aggregate_id"
                + " NOT IN (?, ?) ORDER BY seq LIMIT ?", Long.class, head.get(0).get("aggregate_id"),
                head.get(1).get("aggregate_id"), BATCH);
        OutboxStore store = store(true);
        assertClaimsTheHeadOfTheBacklog(store, expected);

        Map<OutboxStatements.Param, Object> check = Map.of(
                OutboxStatements.Param.AGGREGATES, jdbc.queryForList("SELECT DISTINCT aggregate_id FROM outbox WHERE"
                        + " seq IN (" + String.join(", ", expected.stream().map(String::valueOf).toList()) + ")",
                        String.class),
                OutboxStatements.Param.LAST_ORDER, expected.get(expected.size() - 1),
                OutboxStatements.Param.LIMIT, 3 * BATCH + 1);
        for (String name : List.of("waitingCountUpTo", "waitingUpTo", "firstFailedBefore")) {
            OutboxStatements.Statement statement = store.statements().get(name);
            assertThat(pages(statement.sql(check), statement.values(check)))
                    .as("pages the ordering check's %s touched in a table of %,d rows", name, HISTORY + BACKLOG)
                    .isLessThan(PAGES);
        }
    }

    private static void backlog() {
        jdbc.update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload)"
                + " SELECT 'Order', 'order-' || (g % 1000), 'OrderCreated', " + PAYLOAD
                + " FROM generate_series(1, ?) g", BACKLOG);
    }

    private static List<Long> firstWaiting(int n) {
        return jdbc.queryForList("SELECT seq FROM outbox WHERE status = 'PENDING' ORDER BY seq LIMIT ?", Long.class, n);
    }

    /** Claims as the relay's cycle does (in a transaction, rolled back) and counts the pages its plan touched. */
    private static void assertClaimsTheHeadOfTheBacklog(OutboxStore store, List<Long> expected) {
        Instant now = Instant.now();
        tx.executeWithoutResult(status -> {
            List<OutboxRow> claimed = store.claim(BATCH, now);
            assertThat(claimed).extracting(r -> ((Number) r.key()).longValue()).containsExactlyElementsOf(expected);
            status.setRollbackOnly();
        });
        OutboxStore.Statement claim = store.claimStatement(BATCH, now);
        assertThat(pages(claim.sql(), claim.binds().toArray()))
                .as("pages the claim touched behind a backlog of %,d", BACKLOG).isLessThan(PAGES);
    }

    /**
     * The pages a statement's plans touched (EXPLAIN ANALYZE's buffers), planned as the relay's cycle plans it: the
     * more of its custom plan (a connection's first runs of a statement, before it is prepared on the server) and its
     * generic plan (every run after that).
     */
    private static int pages(String sql, Object[] binds) {
        int custom = pages(() -> jdbc.queryForList("EXPLAIN (ANALYZE, BUFFERS) " + sql, String.class, binds));
        // prepared on the transaction's own connection, closed after it (EXECUTE takes its values as literals)
        int generic = pages(() -> {
            jdbc.execute("PREPARE gw_pages AS " + OutboxExplain.numberedBinds(sql));
            return jdbc.queryForList("EXPLAIN (ANALYZE, BUFFERS) EXECUTE gw_pages (" + String.join(", ",
                    Arrays.stream(binds).map(b -> b instanceof Number ? b.toString()
                            : "'" + b.toString().replace("'", "''") + "'").toList()) + ")", String.class);
        });
        return Math.max(custom, generic);
    }

    private static int pages(Supplier<List<String>> explain) {
        return tx.execute(status -> {
            jdbc.execute(OutboxStore.claimInOrder(Dialect.POSTGRESQL));
            List<String> plan = explain.get();
            status.setRollbackOnly();
            Matcher m = plan.stream().map(BUFFERS::matcher).filter(Matcher::find).findFirst().orElseThrow(
                    () -> new AssertionError("no buffers in " + plan));
            return (m.group(1) == null ? 0 : Integer.parseInt(m.group(1)))
                    + (m.group(2) == null ? 0 : Integer.parseInt(m.group(2)));
        });
    }

    private static OutboxStore store() {
        return store(false);
    }

    private static OutboxStore store(boolean blockAggregate) {
        TableInspector.Table table = TableInspector.inspect(ds, Dialect.POSTGRESQL, new TableName(null, "outbox"),
                "table");
        OutboxMapping mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.STATUS, Map.of(),
                "PENDING", "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
        RejectionLog log = RejectionLog.ifPresent(ds, Dialect.POSTGRESQL, "plan", "legacy/outbox", "dataSource");
        return new OutboxStore(ds, Dialect.POSTGRESQL, mapping, log, true, blockAggregate);
    }
}
