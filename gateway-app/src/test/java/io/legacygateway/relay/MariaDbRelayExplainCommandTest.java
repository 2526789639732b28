package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.OnMariaDb;
import org.junit.jupiter.api.Test;

@OnMariaDb
class MariaDbRelayExplainCommandTest extends RelayExplainCommandContractTest {

    /**
     * With a published history the claim reads the composite index; with a handful of rows MariaDB walks the primary
     * key instead (cheap at that size), and the command says so.
     */
    @Test
    void withAPublishedHistoryTheClaimReadsTheCompositeIndexThatLeadsWithTheStatus() throws Exception {
        if (legacy().queryForObject("SELECT count(*) FROM outbox WHERE status = 'PUBLISHED'", Long.class) == 0) {
            legacy().update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, status,"
                    + " published_at) SELECT 'Order', CONCAT('order-', seq % 100), 'OrderCreated', '{}', 'PUBLISHED',"
                    + " NOW(6) FROM seq_1_to_20000");
        }
        insertPending(3);
        Run run = explain();
        assertThat(run.output()).contains("claim index: ix_outbox_claim holds only waiting rows (columns: status, seq)");
        assertThat(run.exit()).isZero();
    }
}
