package io.legacygateway.adapters.outbox.zerowrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.transaction.TransactionDefinition.ISOLATION_READ_COMMITTED;

import io.legacygateway.adapters.outbox.Backlog;
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
 * The window: the zero-write backlog counted only rows beyond the position's low end, so a row committed behind it
 * (the rows lost to lock waits and time zones before 6 December 2026; still possible when the application writes the
 * insert time itself, or a writer's session uses another zone than the server's for a DATETIME column) was never
 * published and never shown: the backlog read 0. Now the relay remembers how many committed rows each window held when
 * it opened, and the backlog counts the rows that have appeared in those windows since. Simulated here by a row whose
 * insert time the application wrote inside a window the relay has already published.
 */
class MariaDbZeroWriteBacklogCountsRowsCommittedBehindThePositionTest {

    private TestSchema schema;
    private ZeroWriteReader reader;

    @BeforeEach
    void setUp() {
        schema = TestSchema.create(ContractDatabase.MARIADB, getClass(), GatewaySchema.OUTBOX, GatewaySchema.RELAY);
        TableInspector.Table table = TableInspector.inspect(schema.dataSource(), schema.dialect(),
                new TableName(null, "outbox"), "table");
        OutboxMapping mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.ZERO_WRITE, Map.of(),
                "PENDING", "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
        RejectionLog log = new RejectionLog(schema.dataSource(), schema.dialect(), "zw", "late/outbox",
                "stateDataSource");
        reader = new ZeroWriteReader(schema.dataSource(), schema.dialect(), mapping, schema.dataSource(),
                schema.dialect(), log, "zw", "late/outbox", StartFrom.BEGINNING, Duration.ofMillis(200), p -> p);
    }

    @AfterEach
    void tearDown() throws Exception {
        schema.close();
    }

    @Test
    void aRowCommittedBehindThePositionIsCountedInTheBacklog() {
        for (String aggregate : List.of("a", "b")) {
            schema.jdbc().update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload)"
                    + " VALUES ('Order', ?, 'OrderCreated', '{}')", aggregate);
        }
        List<Long> published = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
            published.addAll(cycle());
            return published.size() >= 2;
        });
        assertThat(reader.backlog(Instant.now()).pending()).as("all published").isZero();

        schema.jdbc().update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, created_at)"
                + " SELECT 'Order', 'behind', 'OrderCreated', '{}', MIN(created_at) + INTERVAL 1 MICROSECOND FROM outbox");

        assertThat(cycle()).as("behind the position: the relay cannot publish it").isEmpty();
        Backlog backlog = reader.backlog(Instant.now());
        assertThat(backlog.pending()).as("the row committed behind the position, in the backlog").isEqualTo(1);
    }

    private List<Long> cycle() {
        return OutboxFixture.keysOf(schema.inTransaction(ISOLATION_READ_COMMITTED, tx -> reader.claim(10,
                Instant.now())));
    }
}
