package io.legacygateway.adapters.outbox.store;

import static io.legacygateway.adapters.outbox.store.OutboxFixture.keysOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.FailedRow;
import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Failed attempts in each mark mode that writes to the table: a row waiting for its retry is not claimed before its
 * time, nor are the later rows of its aggregate, while other aggregates' rows are; at its time it is claimed with its
 * attempts counted (on the row where it has the columns, else in the {@link RejectionLog}). A parked (FAILED) row is
 * never claimed, is listed with its reason and attempts, counts in the backlog, and an operator's retry makes it due
 * with no attempts counted; with {@code blockAggregate} it holds back its aggregate. A row the database refuses to mark
 * is charged to that row: the others are published, it is parked.
 */
abstract class OutboxStoreRetryAndParkContractTest extends OutboxStoreContract {

    private List<Long> claimed(OutboxStore store, Instant now) {
        return keysOf(schema.inTransaction(tx -> store.claim(10, now)));
    }

    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP", "DELETE"})
    void aRowWaitingForItsRetryHoldsBackItsAggregateUntilItsTime(MarkMode mode) {
        OutboxStore store = outbox.store(mode, true, false);
        List<Long> keys = outbox.insert(mode, "x", "x", "y");
        schema.inTransactionDo(tx -> {
            OutboxRow first = store.claim(1, T0).get(0);
            store.mark(List.of(), T0, "relay-1", List.of(new OutboxFailure(first, "broker refused", 1,
                    T0.plusSeconds(60))));
        });

        assertThat(claimed(store, T0.plusSeconds(59))).as("only the other aggregate's row").containsExactly(keys.get(2));
        List<OutboxRow> due = schema.inTransaction(tx -> store.claim(10, T0.plusSeconds(60)));
        assertThat(keysOf(due)).containsExactlyElementsOf(keys);
        assertThat(due.get(0).retryCount()).isEqualTo(1);
        assertThat(due.get(1).retryCount()).isZero();
        assertThat(store.waiting(10)).extracting(OutboxRow::retryCount).containsExactly(1, 0, 0);
        assertThat(store.backlog(T0)).satisfies(b -> {
            assertThat(b.pending()).as("a retrying row still waits").isEqualTo(3);
            assertThat(b.failed()).isZero();
        });
        assertThat(store.failed(10)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP", "DELETE"})
    void aParkedRowIsNeverClaimedIsListedWithItsReasonAndAnOperatorsRetryMakesItDue(MarkMode mode) {
        OutboxStore store = outbox.store(mode, true, false);
        List<Long> keys = outbox.insert(mode, "x", "x", "y");
        Instant parkedAt = T0.plusSeconds(1);
        schema.inTransactionDo(tx -> {
            OutboxRow first = store.claim(1, T0).get(0);
            store.mark(List.of(), parkedAt, "relay-1", List.of(new OutboxFailure(first, "payload is not JSON", 3,
                    null)));
        });

        assertThat(claimed(store, T0.plusSeconds(3600))).as("failedRowPolicy SKIP: its aggregate goes on")
                .containsExactly(keys.get(1), keys.get(2));
        List<FailedRow> failed = store.failed(10);
        assertThat(failed).hasSize(1);
        assertThat(failed.get(0).row().key()).isEqualTo(keys.get(0));
        assertThat(failed.get(0).reason()).isEqualTo("payload is not JSON");
        assertThat(failed.get(0).attempts()).isEqualTo(3);
        assertThat(store.failed(List.of(String.valueOf(keys.get(0)), String.valueOf(keys.get(1)))))
                .extracting(f -> f.row().key()).containsExactly(keys.get(0));
        assertThat(store.backlog(T0)).satisfies(b -> {
            assertThat(b.pending()).isEqualTo(2);
            assertThat(b.failed()).isEqualTo(1);
        });
        switch (mode) {
            case STATUS -> assertThat(outbox.value(mode, keys.get(0), "status", String.class)).isEqualTo("FAILED");
            case TIMESTAMP -> assertThat(outbox.count(mode, "published_at IS NOT NULL")).isEqualTo(1);
            case DELETE -> assertThat(outbox.keys(mode)).as("left in place").containsExactlyElementsOf(keys);
            default -> throw new IllegalStateException();
        }

        assertThat(schema.<Integer>inTransaction(tx -> store.retry(failed))).isEqualTo(1);
        assertThat(schema.<Integer>inTransaction(tx -> store.retry(failed))).as("no longer FAILED").isZero();
        List<OutboxRow> again = schema.inTransaction(tx -> store.claim(10, T0));
        assertThat(keysOf(again)).containsExactlyElementsOf(keys);
        assertThat(again.get(0).retryCount()).as("no attempts counted after a retry").isZero();
        assertThat(store.backlog(T0).failed()).isZero();
    }

    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP", "DELETE"})
    void withBlockAggregateAParkedRowHoldsBackTheLaterRowsOfItsAggregate(MarkMode mode) {
        OutboxStore store = outbox.store(mode, true, true);
        List<Long> keys = outbox.insert(mode, "x", "x", "y");
        schema.inTransactionDo(tx -> {
            OutboxRow first = store.claim(1, T0).get(0);
            store.mark(List.of(), T0, "relay-1", List.of(new OutboxFailure(first, "poison", 1, null)));
        });

        assertThat(claimed(store, T0.plusSeconds(3600))).containsExactly(keys.get(2));
        schema.inTransactionDo(tx -> store.retry(store.failed(10)));
        assertThat(claimed(store, T0)).containsExactlyElementsOf(keys);
    }

    /**
     * The window between a claim and its ordering check: another relay parks an earlier row of a claimed aggregate (it
     * held that row, so the claim skipped it). With {@code blockAggregate} the check holds the later row back; without,
     * a parked row holds nothing.
     */
    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP", "DELETE"})
    void withBlockAggregateARowAnotherRelayParkedWhileThisClaimRanHoldsBackItsAggregate(MarkMode mode) {
        List<Long> keys = outbox.insert(mode, "x", "x", "y");
        OutboxStore blocking = outbox.store(mode, true, true);
        List<OutboxRow> rows = blocking.waiting(10);
        schema.inTransactionDo(tx -> blocking.mark(List.of(), T0, "relay-2",
                List.of(new OutboxFailure(rows.get(0), "poison", 1, null))));
        List<OutboxRow> claimed = rows.subList(1, 3);

        assertThat(keysOf(List.copyOf(new AggregateOrder(schema.jdbc(), schema.dialect(), blocking.mapping(),
                blocking.statements()).behindOtherRows(claimed)))).containsExactly(keys.get(1));
        OutboxStore skipping = outbox.store(mode, true, false);
        assertThat(new AggregateOrder(schema.jdbc(), schema.dialect(), skipping.mapping(), skipping.statements())
                .behindOtherRows(claimed)).as("failedRowPolicy SKIP").isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP"})
    void aRowTheDatabaseRefusesToMarkIsParkedAndTheOthersArePublished(MarkMode mode) {
        String table = OutboxFixture.table(mode);
        String published = mode == MarkMode.STATUS ? "status = 'PUBLISHED'" : "published_at IS NOT NULL";
        schema.jdbc().execute("ALTER TABLE " + table + " ADD CONSTRAINT ck_" + table + "_poison CHECK (NOT ("
                + published + " AND aggregate_id = 'poison'))");
        try {
            OutboxStore store = outbox.store(mode, true, false);
            List<Long> keys = outbox.insert(mode, "a", "poison", "b");

            List<OutboxFailure> parked = schema.inTransaction(tx -> {
                List<OutboxRow> rows = store.claim(10, T0);
                return store.mark(rows, T0, "relay-1", List.of());
            });

            assertThat(parked).extracting(f -> f.row().key()).containsExactly(keys.get(1));
            assertThat(parked.get(0).parked()).isTrue();
            assertThat(parked.get(0).reason()).startsWith("published to the broker, but the database refused its mark");
            assertThat(outbox.count(mode, published)).isEqualTo(2);
            assertThat(claimed(store, T0.plusSeconds(3600))).as("never claimed again").isEmpty();
            assertThat(store.failed(10)).extracting(f -> f.row().key()).containsExactly(keys.get(1));
            assertThat(store.backlog(T0)).satisfies(b -> {
                assertThat(b.pending()).isZero();
                assertThat(b.failed()).isEqualTo(1);
            });
        } finally {
            schema.jdbc().execute("ALTER TABLE " + table + " DROP CONSTRAINT ck_" + table + "_poison");
        }
    }
}
