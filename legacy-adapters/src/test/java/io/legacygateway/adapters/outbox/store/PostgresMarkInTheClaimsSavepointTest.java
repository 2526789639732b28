package io.legacygateway.adapters.outbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.testsupport.OnPostgres;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL: the cycle takes its row locks inside the savepoint its mark rolls back to when the database refuses the
 * mark ({@link io.legacygateway.adapters.sql.Dialect#claimsInMarkSavepoint}). Marked rows then carry no multixact; the
 * price is a window in which a refused mark has released the claim's locks and another relay may take the rows. Each
 * row is then marked by exactly one relay: a row the other relay marked stays as it marked it, a row it holds is left
 * to it, and the offender is parked with the database's reason.
 */
@OnPostgres
class PostgresMarkInTheClaimsSavepointTest extends OutboxStoreContract {

    private static final MarkMode MODE = MarkMode.STATUS;
    private static final String TABLE = OutboxFixture.table(MODE);

    @BeforeEach
    void refusePoison() {
        schema.jdbc().execute("ALTER TABLE " + TABLE + " ADD CONSTRAINT ck_poison CHECK (NOT (status = 'PUBLISHED'"
                + " AND aggregate_id = 'poison'))");
    }

    @AfterEach
    void acceptPoison() {
        schema.jdbc().execute("ALTER TABLE " + TABLE + " DROP CONSTRAINT ck_poison");
    }

    @Test
    void markedRowsCarryNoMultixact() {
        OutboxStore store = outbox.store(MODE, true, false);
        outbox.insert(MODE, "a", "b", "c");

        schema.inTransactionDo(tx -> store.mark(store.claim(10, T0), T0, "relay-1", List.of()));

        assertThat(outbox.count(MODE, "status = 'PUBLISHED'")).isEqualTo(3);
        schema.jdbc().execute("CREATE EXTENSION IF NOT EXISTS pageinspect"); // PostgreSQL's contrib, as packaged
        String pageinspect = schema.jdbc().queryForObject("SELECT extnamespace::regnamespace::text FROM pg_extension"
                + " WHERE extname = 'pageinspect'", String.class);
        // HEAP_XMAX_IS_MULTI: the old version's deleter is a multixact (a lock of the transaction and an update of
        // its subtransaction), as every marked row had when the mark's savepoint followed the claim
        Integer multis = schema.jdbc().queryForObject("SELECT count(*) FROM " + pageinspect + ".heap_page_items("
                + pageinspect + ".get_raw_page(?, 0)) WHERE t_infomask & 4096 <> 0", Integer.class,
                schema.name() + "." + TABLE);
        assertThat(multis).isZero();
    }

    @Test
    void aRowAnotherRelayMarkedWhileARefusedMarkHadReleasedTheClaimStaysAsThatRelayMarkedIt() {
        OutboxStore first = outbox.store(MODE, true, false);
        OutboxStore second = outbox.store(MODE, true, false);
        List<Long> keys = outbox.insert(MODE, "a", "poison", "b");
        first.onClaimReleased(() -> CompletableFuture.runAsync(() -> schema.inTransactionDo(tx ->
                second.mark(second.claim(1, T0), T0, "relay-2", List.of()))).join());

        List<OutboxFailure> parked = schema.inTransaction(tx -> first.mark(first.claim(10, T0), T0, "relay-1",
                List.of()));

        assertThat(parked).extracting(f -> f.row().key()).containsExactly(keys.get(1));
        assertThat(parked.get(0).reason()).contains("ck_poison");
        assertThat(outbox.value(MODE, keys.get(0), "locked_by", String.class)).isEqualTo("relay-2");
        assertThat(outbox.value(MODE, keys.get(1), "status", String.class)).isEqualTo("FAILED");
        assertThat(outbox.value(MODE, keys.get(2), "locked_by", String.class)).isEqualTo("relay-1");
        assertThat(outbox.count(MODE, "status = 'PUBLISHED'")).isEqualTo(2);
    }

    @Test
    void rowsAnotherRelayHoldsWhenARefusedMarkLocksItsRowsAgainAreLeftToIt() throws Exception {
        OutboxStore first = outbox.store(MODE, true, false);
        OutboxStore second = outbox.store(MODE, true, false);
        List<Long> keys = outbox.insert(MODE, "a", "poison", "b");
        CountDownLatch claimed = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<List<OutboxFailure>> other = new CompletableFuture<>();
        first.onClaimReleased(() -> {
            CompletableFuture.runAsync(() -> other.complete(schema.inTransaction(tx -> {
                List<OutboxRow> rows = second.claim(10, T0);
                claimed.countDown();
                await(release);
                return second.mark(rows, T0, "relay-2", List.of());
            }))).exceptionally(e -> {
                other.completeExceptionally(e);
                return null;
            });
            await(claimed);
        });

        List<OutboxFailure> parked = schema.inTransaction(tx -> first.mark(first.claim(10, T0), T0, "relay-1",
                List.of()));
        release.countDown();

        assertThat(parked).as("nothing was the first relay's to mark or park").isEmpty();
        assertThat(other.get(30, TimeUnit.SECONDS)).extracting(f -> f.row().key()).containsExactly(keys.get(1));
        assertThat(outbox.value(MODE, keys.get(0), "locked_by", String.class)).isEqualTo("relay-2");
        assertThat(outbox.value(MODE, keys.get(2), "locked_by", String.class)).isEqualTo("relay-2");
        assertThat(outbox.value(MODE, keys.get(1), "status", String.class)).isEqualTo("FAILED");
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
