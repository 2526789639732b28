package io.legacygateway.adapters.outbox.zerowrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.springframework.transaction.TransactionDefinition.ISOLATION_READ_COMMITTED;
import static org.springframework.transaction.TransactionDefinition.ISOLATION_REPEATABLE_READ;

import io.legacygateway.adapters.outbox.FailedRow;
import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.outbox.store.OutboxFixture;
import io.legacygateway.adapters.outbox.store.RejectionLog;
import io.legacygateway.adapters.outbox.zerowrite.ZeroWriteReader.StartFrom;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.adapters.testsupport.ContractDatabaseTest;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@link ZeroWriteReader} (markMode ZERO_WRITE) on a table it only reads: every committed row is returned once, in
 * outbox order, once the database's commit horizon has passed it (the horizon depends on every transaction of the
 * server, so the tests wait for it with awaitility, never a sleep); the position moves only with the cycle's commit,
 * so a cycle that rolls back reads the same rows again; {@code StartFrom.NOW} leaves the rows already there; failed
 * attempts come back through the rejection log when due, and parked ones are listed until an operator's retry; a
 * position belongs to one source table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ZeroWriteReaderContractTest implements ContractDatabaseTest {

    /**
     * How long a row may take to become final: the horizon waits for the oldest transaction of the whole server, and
     * the test servers are shared with other test runs (a lock-wait test elsewhere holds one open for seconds).
     */
    static final Duration FINAL_WITHIN = Duration.ofSeconds(120);
    /** The relay's cycles are READ COMMITTED (RelayTransactions); a claim requires it where it reads in them. */
    static final int READ_COMMITTED = ISOLATION_READ_COMMITTED;

    TestSchema schema;
    OutboxMapping mapping;
    RejectionLog log;

    @BeforeAll
    void createSchema() {
        schema = TestSchema.create(database(), getClass(), GatewaySchema.OUTBOX, GatewaySchema.RELAY);
        TableInspector.Table table = TableInspector.inspect(schema.dataSource(), schema.dialect(),
                new TableName(null, "outbox"), "table");
        mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.ZERO_WRITE, Map.of(), "PENDING",
                "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
        log = new RejectionLog(schema.dataSource(), schema.dialect(), "zw", "contract/outbox", "stateDataSource");
    }

    @AfterAll
    void dropSchema() throws Exception {
        schema.close();
    }

    @BeforeEach
    void empty() {
        for (String table : List.of("outbox", ZeroWriteReader.TABLE, RejectionLog.TABLE)) {
            schema.jdbc().update("DELETE FROM " + table);
        }
    }

    private ZeroWriteReader reader(String relay, String source, StartFrom startFrom) {
        return new ZeroWriteReader(schema.dataSource(), schema.dialect(), mapping, schema.dataSource(),
                schema.dialect(), log, relay, source, startFrom, Duration.ofMillis(50), p -> p);
    }

    private List<Long> insert(String... aggregates) {
        for (String aggregate : aggregates) {
            schema.jdbc().update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload)"
                    + " VALUES ('Order', ?, 'OrderCreated', '{}')", aggregate);
        }
        List<Long> keys = schema.jdbc().queryForList("SELECT seq FROM outbox ORDER BY seq", Long.class);
        return keys.subList(keys.size() - aggregates.length, keys.size());
    }

    /** Claims in committed cycles until {@code expected} rows came (the horizon passes them when it will). */
    private List<Long> drain(ZeroWriteReader reader, int expected) {
        List<Long> seen = new ArrayList<>();
        await().atMost(FINAL_WITHIN).pollInterval(Duration.ofMillis(50)).until(() -> {
            seen.addAll(OutboxFixture.keysOf(schema.inTransaction(READ_COMMITTED,
                    tx -> reader.claim(10, Instant.now()))));
            return seen.size() >= expected;
        });
        return seen;
    }

    @Test
    void everyCommittedRowIsReturnedOnceInOutboxOrder() {
        ZeroWriteReader reader = reader("zw", "contract/outbox", StartFrom.BEGINNING);
        List<Long> keys = insert("a", "b", "c");

        assertThat(drain(reader, 3)).containsExactlyElementsOf(keys);
        List<Long> later = insert("d");
        assertThat(drain(reader, 1)).as("the position has moved past the first three").containsExactlyElementsOf(later);
        assertThat(reader.backlog(Instant.now()).pending()).isZero();
        assertThat(reader.behindOtherRows(List.of())).isEmpty();
        assertThat(reader.keepsOrderPerAggregate()).isFalse();
        assertThat(schema.jdbc().queryForObject("SELECT count(*) FROM outbox", Integer.class))
                .as("nothing written to the table it reads").isEqualTo(4);
    }

    @Test
    void aCycleThatRollsBackReadsTheSameRowsAgain() {
        ZeroWriteReader reader = reader("zw", "contract/outbox", StartFrom.BEGINNING);
        List<Long> keys = insert("a", "b");
        List<Long> first = new ArrayList<>();
        await().atMost(FINAL_WITHIN).pollInterval(Duration.ofMillis(50)).until(() -> {
            try {
                schema.inTransaction(READ_COMMITTED, tx -> {
                    first.addAll(OutboxFixture.keysOf(reader.claim(10, Instant.now())));
                    throw new IllegalStateException("the broker did not confirm");
                });
            } catch (IllegalStateException rolledBack) {
                // the position goes back with the cycle
            }
            return !first.isEmpty();
        });
        assertThat(first).containsExactlyElementsOf(keys);

        assertThat(drain(reader, 2)).containsExactlyElementsOf(keys);
    }

    @Test
    void startingFromNowLeavesTheRowsAlreadyThere() {
        insert("old-1", "old-2");
        // "already there" means provably final at the start: a probe relay has seen the horizon pass them (while any
        // transaction of the server that began before them runs, they could still belong to the new relay's range)
        drain(reader("zw-probe", "contract/outbox", StartFrom.BEGINNING), 2);
        ZeroWriteReader reader = reader("zw-now", "contract/outbox", StartFrom.NOW);
        List<Long> fresh = insert("new");

        assertThat(drain(reader, 1)).containsExactlyElementsOf(fresh);
    }

    @Test
    void failedAttemptsComeBackWhenDueAndParkedRowsWaitForAnOperator() {
        ZeroWriteReader reader = reader("zw", "contract/outbox", StartFrom.BEGINNING);
        List<Long> keys = insert("a", "b");
        drain(reader, 2);
        Instant at = Instant.now();
        List<OutboxRow> rows = schema.inTransaction(READ_COMMITTED, tx -> reader.claim(0, at));
        assertThat(rows).isEmpty();
        OutboxRow a = rowOf(reader, keys.get(0));
        OutboxRow b = rowOf(reader, keys.get(1));
        schema.inTransactionDo(tx -> reader.recordFailures(List.of(new OutboxFailure(a, "broker refused", 1,
                at.plusSeconds(3600)), new OutboxFailure(b, "not JSON", 4, null)), at));

        assertThat(schema.<List<OutboxRow>>inTransaction(READ_COMMITTED, tx -> reader.claim(10, at))).isEmpty();
        List<OutboxRow> due = schema.inTransaction(READ_COMMITTED, tx -> reader.claim(10, at.plusSeconds(3600)));
        assertThat(OutboxFixture.keysOf(due)).containsExactly(keys.get(0));
        assertThat(due.get(0).retryCount()).isEqualTo(1);
        assertThat(reader.failed(10)).extracting(f -> f.row().key(), FailedRow::reason, FailedRow::attempts)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(keys.get(1), "not JSON", 4));
        assertThat(reader.backlog(at).failed()).isEqualTo(1);

        schema.inTransactionDo(tx -> reader.markPublished(due, at, "relay-1"));
        assertThat(log.entries(List.of(String.valueOf(keys.get(0))))).as("published: its entry goes").isEmpty();
        assertThat(schema.<Integer>inTransaction(tx -> reader.retry(reader.failed(10)))).isEqualTo(1);
        assertThat(OutboxFixture.keysOf(schema.inTransaction(READ_COMMITTED, tx -> reader.claim(10, at))))
                .containsExactly(keys.get(1));
    }

    /** A row as the reader reads it, by key. */
    private OutboxRow rowOf(ZeroWriteReader reader, long key) {
        return new OutboxRow(key, key, schema.jdbc().queryForObject("SELECT id FROM outbox WHERE seq = ?",
                String.class, key), "Order", null, "OrderCreated", 1, "{}", null, null, null, null, null, 0);
    }

    @Test
    void aCycleUnderRepeatableReadIsRefusedBeforeItReads() {
        ZeroWriteReader reader = reader("zw", "contract/outbox", StartFrom.BEGINNING);
        insert("a");

        assertThatThrownBy(() -> schema.inTransaction(ISOLATION_REPEATABLE_READ, tx -> reader.claim(10, Instant.now())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("must be READ COMMITTED")
                .hasMessageContaining("an older read view would hide rows committed after it");
        assertThat(schema.jdbc().queryForObject("SELECT window_low FROM " + ZeroWriteReader.TABLE
                + " WHERE relay = 'zw'", String.class)).as("the position has not moved").isNull();
    }

    @Test
    void aPositionBelongsToOneSourceTable() {
        reader("zw-owned", "contract/outbox", StartFrom.BEGINNING);

        assertThatThrownBy(() -> reader("zw-owned", "other/outbox", StartFrom.BEGINNING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("belongs to 'contract/outbox', not 'other/outbox'");
    }
}
