package io.legacygateway.adapters.outbox.store;

import static io.legacygateway.adapters.outbox.store.OutboxFixture.keysOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link OutboxStore} in each mark mode that writes to the table: a claim returns waiting rows in outbox order up to
 * its limit; a mark becomes visible only when the cycle's transaction commits, and then the row is never claimed
 * again (STATUS: published status, time and publisher; TIMESTAMP: processed time; DELETE: the row is gone); a cycle
 * that rolls back leaves every row to be claimed again; the backlog counts exactly what waits and what is parked.
 */
abstract class OutboxStoreClaimAndMarkContractTest extends OutboxStoreContract {

    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP", "DELETE"})
    void aClaimReturnsWaitingRowsInOutboxOrderUpToItsLimit(MarkMode mode) {
        OutboxStore store = outbox.store(mode, true, false);
        List<Long> keys = outbox.insert(mode, "o-1", "o-2", "o-3", "o-4", "o-5");

        List<OutboxRow> claimed = schema.inTransaction(tx -> store.claim(3, T0));

        assertThat(keysOf(claimed)).containsExactlyElementsOf(keys.subList(0, 3));
        OutboxRow first = claimed.get(0);
        assertThat(first.aggregateType()).isEqualTo("Order");
        assertThat(first.aggregateId()).isEqualTo("o-1");
        assertThat(first.eventType()).isEqualTo("OrderCreated");
        assertThat(first.payload()).isEqualTo("{\"order\":\"o-1\"}");
        assertThat(first.eventId()).isEqualTo(outbox.value(mode, keys.get(0), "id", String.class));
        assertThat(first.keyText()).isEqualTo(String.valueOf(keys.get(0)));
        assertThat(first.retryCount()).isZero();
        assertThat(first.problem()).isNull();
    }

    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP", "DELETE"})
    void publishedRowsAreRecordedTheModesWayAndNeverClaimedAgain(MarkMode mode) {
        OutboxStore store = outbox.store(mode, true, false);
        List<Long> keys = outbox.insert(mode, "o-1", "o-2", "o-3", "o-4", "o-5");
        Instant at = T0.plusSeconds(5);

        List<OutboxFailure> parked = schema.inTransaction(tx -> {
            List<OutboxRow> claimed = store.claim(3, T0);
            return store.mark(claimed, at, "relay-1", List.of());
        });

        assertThat(parked).isEmpty();
        assertThat(keysOf(schema.inTransaction(tx -> store.claim(10, T0)))).containsExactlyElementsOf(keys.subList(3, 5));
        switch (mode) {
            case STATUS -> {
                assertThat(outbox.count(mode, "status = 'PUBLISHED'")).isEqualTo(3);
                assertThat(outbox.count(mode, "status = 'PENDING'")).isEqualTo(2);
                assertThat(outbox.value(mode, keys.get(0), "locked_by", String.class)).isEqualTo("relay-1");
                assertThat(outbox.value(mode, keys.get(0), "published_at", Timestamp.class).toInstant()).isEqualTo(at);
            }
            case TIMESTAMP -> {
                assertThat(outbox.count(mode, "published_at IS NOT NULL")).isEqualTo(3);
                assertThat(outbox.value(mode, keys.get(2), "published_at", Timestamp.class).toInstant()).isEqualTo(at);
                assertThat(outbox.value(mode, keys.get(2), "locked_by", String.class)).isEqualTo("relay-1");
            }
            case DELETE -> assertThat(outbox.keys(mode)).containsExactlyElementsOf(keys.subList(3, 5));
            default -> throw new IllegalStateException();
        }
        assertThat(store.backlog(T0)).satisfies(b -> {
            assertThat(b.pending()).isEqualTo(2);
            assertThat(b.failed()).isZero();
            assertThat(b.oldestPending()).isNotNull();
        });
    }

    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP", "DELETE"})
    void aCycleThatRollsBackLeavesEveryRowToBeClaimedAgain(MarkMode mode) {
        OutboxStore store = outbox.store(mode, true, false);
        List<Long> keys = outbox.insert(mode, "o-1", "o-2", "o-3");

        assertThatThrownBy(() -> schema.inTransactionDo(tx -> {
            List<OutboxRow> claimed = store.claim(10, T0);
            store.mark(claimed.subList(0, 2), T0, "relay-1", List.of(new OutboxFailure(claimed.get(2),
                    "broker refused", 1, T0.plusSeconds(60))));
            throw new IllegalStateException("the broker connection broke before commit");
        })).hasMessageContaining("before commit");

        List<OutboxRow> again = schema.inTransaction(tx -> store.claim(10, T0));
        assertThat(keysOf(again)).containsExactlyElementsOf(keys);
        assertThat(again).extracting(OutboxRow::retryCount).containsOnly(0);
        assertThat(store.backlog(T0).pending()).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP"})
    void retentionDeletesOnlyPublishedRowsOlderThanTheCutoffInBoundedBatches(MarkMode mode) {
        OutboxStore store = outbox.store(mode, true, false);
        List<Long> keys = outbox.insert(mode, "o-1", "o-2", "o-3", "o-4", "o-5");
        schema.inTransactionDo(tx -> {
            List<OutboxRow> claimed = store.claim(4, T0);
            store.mark(claimed.subList(0, 3), T0, "relay-1",
                    List.of(new OutboxFailure(claimed.get(3), "poison", 5, null)));
        });

        assertThat(store.keepsPublishedRows()).isTrue();
        assertThat(schema.<Integer>inTransaction(tx -> store.deletePublishedBefore(T0, 10))).as("not older than the cutoff")
                .isZero();
        assertThat(schema.<Integer>inTransaction(tx -> store.deletePublishedBefore(T0.plusSeconds(1), 2))).isEqualTo(2);
        assertThat(schema.<Integer>inTransaction(tx -> store.deletePublishedBefore(T0.plusSeconds(1), 2))).isEqualTo(1);
        assertThat(schema.<Integer>inTransaction(tx -> store.deletePublishedBefore(T0.plusSeconds(1), 2))).isZero();
        assertThat(outbox.keys(mode)).as("the FAILED row and the waiting row stay")
                .containsExactlyElementsOf(keys.subList(3, 5));
    }

    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"DELETE"})
    void deleteModeKeepsNoPublishedRows(MarkMode mode) {
        OutboxStore store = outbox.store(mode, true, false);
        assertThat(store.keepsPublishedRows()).isFalse();
        assertThatThrownBy(() -> store.deletePublishedBefore(T0, 10)).hasMessageContaining("keeps no published rows");
    }
}
