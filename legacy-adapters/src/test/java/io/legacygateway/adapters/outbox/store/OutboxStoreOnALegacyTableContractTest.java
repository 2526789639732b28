package io.legacygateway.adapters.outbox.store;

import static io.legacygateway.adapters.outbox.store.OutboxFixture.keysOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.adapters.testsupport.ContractDatabaseTest;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * STATUS mode on a legacy table of its own shape: an integer status (0 pending, 1 published, 2 failed), other column
 * names, the aggregate type given by configuration, and no reason, retry-count or next-retry column. Then the store
 * needs the {@link RejectionLog}: attempts, next retry times and reasons live there, while the status on the row still
 * says pending, published or failed; FAILED rows are listed with the log's reason and an operator's retry sets the
 * status back and the log's entry due.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OutboxStoreOnALegacyTableContractTest implements ContractDatabaseTest {

    static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    static final Map<String, String> PARAMETERS = Map.of("keyColumn", "order_no", "orderColumn", "order_no",
            "eventIdColumn", "ref", "aggregateType", "Order", "aggregateIdColumn", "customer", "eventTypeColumn",
            "kind", "payloadColumn", "body", "statusColumn", "state");

    TestSchema schema;
    OutboxStore store;
    RejectionLog log;

    @BeforeAll
    void createSchema() {
        schema = TestSchema.create(database(), getClass(), GatewaySchema.RELAY);
        schema.jdbc().execute("CREATE TABLE legacy_events (order_no BIGINT PRIMARY KEY, ref VARCHAR(64) NOT NULL,"
                + " customer VARCHAR(64) NOT NULL, kind VARCHAR(64) NOT NULL, body VARCHAR(4000) NOT NULL,"
                + " state SMALLINT DEFAULT 0 NOT NULL)");
        TableInspector.Table table = TableInspector.inspect(schema.dataSource(), schema.dialect(),
                new TableName(null, "legacy_events"), "table");
        OutboxMapping mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.STATUS, PARAMETERS,
                "0", "1", "2", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
        assertThat(OutboxStore.needsRejectionLog(mapping, true)).isTrue();
        assertThat(OutboxStore.attemptsOnRow(mapping)).isFalse();
        log = new RejectionLog(schema.dataSource(), schema.dialect(), "legacy", "contract/legacy_events",
                "dataSource");
        store = new OutboxStore(schema.dataSource(), schema.dialect(), mapping, log, true, false);
    }

    @AfterAll
    void dropSchema() throws Exception {
        schema.close();
    }

    @BeforeEach
    void rows() {
        schema.jdbc().update("DELETE FROM legacy_events");
        schema.jdbc().update("DELETE FROM " + RejectionLog.TABLE);
        for (long n = 1; n <= 3; n++) {
            schema.jdbc().update("INSERT INTO legacy_events (order_no, ref, customer, kind, body) VALUES (?, ?, ?, ?, ?)",
                    n * 10, "ref-" + n, n == 3 ? "c-2" : "c-1", "OrderPlaced", "{\"n\":" + n + "}");
        }
    }

    private int state(long key) {
        return schema.jdbc().queryForObject("SELECT state FROM legacy_events WHERE order_no = ?", Integer.class, key);
    }

    @Test
    void theMappingReadsTheLegacyColumnsAndMarksWithTheIntegerStatus() {
        List<OutboxRow> claimed = schema.inTransaction(tx -> {
            List<OutboxRow> rows = store.claim(2, T0);
            store.mark(rows, T0, "relay-1", List.of());
            return rows;
        });

        assertThat(keysOf(claimed)).containsExactly(10L, 20L);
        assertThat(claimed.get(0)).satisfies(r -> {
            assertThat(r.eventId()).isEqualTo("ref-1");
            assertThat(r.aggregateType()).isEqualTo("Order");
            assertThat(r.aggregateId()).isEqualTo("c-1");
            assertThat(r.eventType()).isEqualTo("OrderPlaced");
            assertThat(r.payload()).isEqualTo("{\"n\":1}");
        });
        assertThat(state(10)).isEqualTo(1);
        assertThat(state(20)).isEqualTo(1);
        assertThat(state(30)).isZero();
        assertThat(store.backlog(T0)).isEqualTo(new Backlog(1, null, 0));
    }

    @Test
    void attemptsAndRetryTimesLiveInTheLogWhileTheRowStaysPending() {
        schema.inTransactionDo(tx -> {
            OutboxRow first = store.claim(1, T0).get(0);
            store.mark(List.of(), T0, "relay-1", List.of(new OutboxFailure(first, "broker refused", 1,
                    T0.plusSeconds(30))));
        });

        assertThat(state(10)).isZero();
        assertThat(log.entries(List.of("10")).get("10").state()).isEqualTo(RejectionLog.State.RETRY);
        assertThat(keysOf(schema.inTransaction(tx -> store.claim(10, T0.plusSeconds(29))))).containsExactly(30L);
        List<OutboxRow> due = schema.inTransaction(tx -> {
            List<OutboxRow> rows = store.claim(10, T0.plusSeconds(30));
            store.mark(rows, T0.plusSeconds(30), "relay-1", List.of());
            return rows;
        });
        assertThat(keysOf(due)).containsExactly(10L, 20L, 30L);
        assertThat(due.get(0).retryCount()).as("counted by the log").isEqualTo(1);
        assertThat(log.entries(List.of("10"))).as("published: the entry goes").isEmpty();
    }

    @Test
    void aParkedRowHasTheFailedStatusItsReasonInTheLogAndAnOperatorCanRetryIt() {
        schema.inTransactionDo(tx -> {
            OutboxRow first = store.claim(1, T0).get(0);
            store.mark(List.of(), T0, "relay-1", List.of(new OutboxFailure(first, "unknown event type", 5, null)));
        });

        assertThat(state(10)).isEqualTo(2);
        assertThat(store.failed(10)).singleElement().satisfies(f -> {
            assertThat(f.row().key()).isEqualTo(10L);
            assertThat(f.reason()).isEqualTo("unknown event type");
            assertThat(f.attempts()).isEqualTo(5);
            assertThat(f.failedAt()).isEqualTo(T0);
        });
        assertThat(store.backlog(T0)).isEqualTo(new Backlog(2, null, 1));

        assertThat(schema.<Integer>inTransaction(tx -> store.retry(store.failed(10)))).isEqualTo(1);
        assertThat(state(10)).isZero();
        List<OutboxRow> again = schema.inTransaction(tx -> store.claim(10, T0));
        assertThat(keysOf(again)).containsExactly(10L, 20L, 30L);
        assertThat(again.get(0).retryCount()).isZero();
    }
}
