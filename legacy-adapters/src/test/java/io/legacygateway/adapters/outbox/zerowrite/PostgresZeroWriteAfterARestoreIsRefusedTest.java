package io.legacygateway.adapters.outbox.zerowrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.springframework.transaction.TransactionDefinition.ISOLATION_READ_COMMITTED;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.outbox.store.OutboxFixture;
import io.legacygateway.adapters.outbox.store.RejectionLog;
import io.legacygateway.adapters.outbox.zerowrite.ZeroWriteReader.StartFrom;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.adapters.testsupport.ContractDatabase;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The window: on PostgreSQL a zero-write position is a transaction id. After a dump and restore, or a move of the table
 * to another cluster, the rows carry new, lower transaction ids and the stored position lies beyond every one of them:
 * no window ever opened again, nothing was published and the backlog read 0, silently. Simulated here by moving the
 * stored position a billion transactions into the future (what the old cluster's position is to the new one). Now a
 * restart is refused naming the relay, the position and what to do; a running relay's cycle fails with the same
 * message; the backlog counts every row of the table as waiting.
 */
class PostgresZeroWriteAfterARestoreIsRefusedTest {

    private TestSchema schema;
    private OutboxMapping mapping;
    private RejectionLog log;

    @BeforeEach
    void setUp() {
        schema = TestSchema.create(ContractDatabase.POSTGRESQL, getClass(), GatewaySchema.OUTBOX, GatewaySchema.RELAY);
        TableInspector.Table table = TableInspector.inspect(schema.dataSource(), schema.dialect(),
                new TableName(null, "outbox"), "table");
        mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.ZERO_WRITE, Map.of(), "PENDING",
                "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
        log = new RejectionLog(schema.dataSource(), schema.dialect(), "zw", "restore/outbox", "stateDataSource");
    }

    @AfterEach
    void tearDown() throws Exception {
        schema.close();
    }

    private ZeroWriteReader reader(StartFrom startFrom) {
        return new ZeroWriteReader(schema.dataSource(), schema.dialect(), mapping, schema.dataSource(),
                schema.dialect(), log, "zw", "restore/outbox", startFrom, Duration.ofMillis(50), p -> p);
    }

    @Test
    void aPositionFromAnotherTransactionIdSpaceIsRefusedAtStartAndInTheCycleAndTheBacklogShowsEveryRow() {
        ZeroWriteReader running = reader(StartFrom.BEGINNING);
        insert("a", "b");
        List<Long> published = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
            published.addAll(cycle(running));
            return published.size() >= 2;
        });
        insert("c");

        restoredIntoAnotherCluster();

        assertThatThrownBy(() -> cycle(running))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the position of relay 'zw' in gateway_outbox_position stands at transaction id")
                .hasMessageContaining("restored or moved to another cluster")
                .hasMessageContaining("DELETE FROM gateway_outbox_position WHERE relay = 'zw'")
                .hasMessageContaining("startFrom: BEGINNING");
        assertThat(running.backlog(Instant.now()).pending()).as("every row of the table waits").isEqualTo(3);
        for (StartFrom startFrom : StartFrom.values()) {
            assertThatThrownBy(() -> reader(startFrom))
                    .as("a restart with startFrom %s", startFrom)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("relay: ZERO_WRITE: the position of relay 'zw'")
                    .hasMessageContaining("startFrom: NOW");
        }

        schema.jdbc().update("DELETE FROM gateway_outbox_position WHERE relay = 'zw'");
        ZeroWriteReader restarted = reader(StartFrom.BEGINNING);
        List<Long> again = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
            again.addAll(cycle(restarted));
            return again.size() >= 3;
        });
        assertThat(again).as("after the documented reset every row comes again")
                .containsExactlyElementsOf(schema.jdbc().queryForList("SELECT seq FROM outbox ORDER BY seq",
                        Long.class));
    }

    /** What the old cluster's position is to a restored one: a billion transactions ahead of its ids. */
    private void restoredIntoAnotherCluster() {
        long horizon = schema.jdbc().queryForObject("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint",
                Long.class);
        schema.jdbc().update("UPDATE gateway_outbox_position SET window_low = ?, window_high = NULL, after_order = NULL,"
                + " after_key = NULL WHERE relay = 'zw'", String.valueOf(horizon + 1_000_000_000L));
    }

    private List<Long> cycle(ZeroWriteReader reader) {
        return OutboxFixture.keysOf(schema.inTransaction(ISOLATION_READ_COMMITTED, tx -> reader.claim(10,
                Instant.now())));
    }

    private void insert(String... aggregates) {
        for (String aggregate : aggregates) {
            schema.jdbc().update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload)"
                    + " VALUES ('Order', ?, 'OrderCreated', '{}')", aggregate);
        }
    }
}
