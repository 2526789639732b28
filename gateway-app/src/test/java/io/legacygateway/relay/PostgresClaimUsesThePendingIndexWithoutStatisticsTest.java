package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.store.OutboxExplain;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
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
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Failure: a legacy table keeps its published rows, and after a bulk load the planner has no statistics (autovacuum
 * has not run, nobody ran ANALYZE). Before the fix PostgreSQL then walked the primary key for the claim and filtered
 * out every published row: 72 ms per claim half-drained, a drain quadratic in the table's history. Now the default
 * DDL has a partial index holding only waiting rows, and the claim writes the pending status as a literal, so the
 * claim reads that index whatever the statistics say, also under a cached (generic) plan. Asserts the plan, not time.
 */
class PostgresClaimUsesThePendingIndexWithoutStatisticsTest {

    private static final String SCHEMA = TestDatabase.uniqueName(PostgresClaimUsesThePendingIndexWithoutStatisticsTest.class);
    private static final int PUBLISHED = 200_000;
    private static final int PENDING = 2_000;

    private static JdbcTemplate jdbc;
    private static OutboxStore store;

    @BeforeAll
    static void prefillWithoutStatistics() throws Exception {
        String url = TestDatabase.POSTGRES.create(SCHEMA);
        DriverManagerDataSource ds = new DriverManagerDataSource(url, "postgres", "");
        SchemaScripts.apply(ds, Dialect.POSTGRESQL, "outbox.sql");
        SchemaScripts.apply(ds, Dialect.POSTGRESQL, "relay-state.sql");
        jdbc = new JdbcTemplate(ds);
        jdbc.execute("ALTER TABLE outbox SET (autovacuum_enabled = false)");
        jdbc.update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, status, published_at)"
                + " SELECT 'Order', 'order-' || (g % 1000), 'OrderCreated', '{}', 'PUBLISHED', now()"
                + " FROM generate_series(1, ?) g", PUBLISHED);
        jdbc.update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload)"
                + " SELECT 'Order', 'order-' || (g % 1000), 'OrderCreated', '{}' FROM generate_series(1, ?) g", PENDING);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM pg_stats WHERE tablename = 'outbox' AND schemaname = ?",
                Integer.class, SCHEMA)).as("no statistics were gathered").isZero();
        TableInspector.Table table = TableInspector.inspect(ds, Dialect.POSTGRESQL, new TableName(null, "outbox"),
                "table");
        OutboxMapping mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.STATUS, Map.of(),
                "PENDING", "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
        RejectionLog log = RejectionLog.ifPresent(ds, Dialect.POSTGRESQL, "plan", "legacy/outbox", "dataSource");
        store = new OutboxStore(ds, Dialect.POSTGRESQL, mapping, log, true, false);
    }

    @AfterAll
    static void drop() throws Exception {
        TestDatabase.POSTGRES.drop(SCHEMA);
    }

    @Test
    void theClaimReadsThePartialIndexOfWaitingRowsWithoutStatistics() {
        assertThat(plan(jdbc)).contains("ix_outbox_pending").doesNotContain("outbox_pkey");
    }

    @Test
    void theClaimReadsThePartialIndexUnderAGenericPlan() {
        // the cycle runs generic plans, which relay explain shows (an EXPLAIN with binds plans for their values); a
        // bound status would not imply the index predicate there
        OutboxExplain.Report report = OutboxExplain.explain(store, 100, Instant.now());
        assertThat(String.join("\n", report.plans().get(0).lines())).contains("$2").doesNotContain("outbox_pkey");
        assertThat(report.claimIndex()).isEqualTo("ix_outbox_pending");
    }

    @Test
    void halfDrainedTheClaimStillReadsOnlyWaitingRows() {
        jdbc.update("UPDATE outbox SET status = 'PUBLISHED', published_at = now() WHERE seq IN"
                + " (SELECT seq FROM outbox WHERE status = 'PENDING' ORDER BY seq LIMIT ?)", PENDING / 2);
        assertThat(plan(jdbc)).contains("ix_outbox_pending").doesNotContain("outbox_pkey");
    }

    private static String plan(JdbcTemplate on) {
        OutboxStore.Statement claim = store.claimStatement(100, Instant.now());
        return on.queryForList("EXPLAIN " + claim.sql(), String.class, claim.binds().toArray()).stream()
                .collect(Collectors.joining("\n"));
    }
}
