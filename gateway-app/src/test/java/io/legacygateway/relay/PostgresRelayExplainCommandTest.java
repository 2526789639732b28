package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.OnPostgres;
import org.junit.jupiter.api.Test;

/**
 * On PostgreSQL the verdict is on the partial index of waiting rows: with the default DDL's {@code ix_outbox_pending}
 * the claim reads it (with no statistics, published rows left in place); with it dropped, the command says so, exits
 * 1 and prints the index to add. The plans are the generic plans the relay's cycle runs (its statements are planned once
 * per connection), not plans for the example binds.
 */
@OnPostgres
class PostgresRelayExplainCommandTest extends RelayExplainCommandContractTest {

    private void publishedHistory() {
        legacy().execute("ALTER TABLE outbox SET (autovacuum_enabled = false)");
        if (legacy().queryForObject("SELECT count(*) FROM outbox WHERE status = 'PUBLISHED'", Long.class) == 0) {
            legacy().update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, status,"
                    + " published_at) SELECT 'Order', 'order-' || (g % 100), 'OrderCreated', '{}', 'PUBLISHED', now()"
                    + " FROM generate_series(1, 50000) g");
        }
    }

    @Test
    void theClaimReadsThePartialIndexOfWaitingRows() throws Exception {
        publishedHistory();
        insertPending(20);
        Run run = explain();
        // an ordered index scan: the claim stops at its limit (a bitmap scan would read every waiting row and sort)
        assertThat(run.output()).contains("Index Scan using ix_outbox_pending on outbox ",
                "claim index: ix_outbox_pending holds only waiting rows (CREATE INDEX ix_outbox_pending ON ");
        assertThat(run.output()).contains("WHERE ((status)::text = 'PENDING'::text))");
        assertThat(run.exit()).isZero();
    }

    @Test
    void thePlansShownAreTheGenericPlansTheCycleRuns() throws Exception {
        insertPending(20);
        Run run = explain();
        // a generic plan compares with the parameter, a plan for the example binds with its value
        assertThat(run.output()).contains("next_retry_at <= $2", "generic plan, as the cycle plans it")
                .doesNotContain("next_retry_at <= '20");
        assertThat(run.output()).contains("Index Scan using ix_outbox_pending on outbox ");
        assertThat(run.exit()).isZero();
    }

    @Test
    void withoutThePartialIndexTheCommandSaysSoAndPrintsTheIndexToAdd() throws Exception {
        publishedHistory();
        insertPending(20);
        String definition = legacy().queryForObject("SELECT indexdef FROM pg_indexes WHERE indexname ="
                + " 'ix_outbox_pending' AND schemaname = current_schema()", String.class);
        legacy().execute("DROP INDEX ix_outbox_pending");
        try {
            Run run = explain();
            assertThat(run.output()).doesNotContain("using ix_outbox_pending")
                    .contains("claim index: the claim does NOT read an index holding only waiting rows",
                            "CREATE INDEX \"ix_outbox_pending\" ON \"outbox\" (\"seq\") WHERE \"status\" = 'PENDING';");
            assertThat(run.exit()).isEqualTo(1);
        } finally {
            legacy().execute(definition);
        }
    }
}
