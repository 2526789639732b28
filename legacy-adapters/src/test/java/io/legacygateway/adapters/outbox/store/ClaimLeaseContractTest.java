package io.legacygateway.adapters.outbox.store;

import static io.legacygateway.adapters.outbox.store.OutboxFixture.keysOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.outbox.ClaimLease;
import io.legacygateway.adapters.outbox.ClaimLostException;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The claim lease the database enforces ({@link ClaimLease}, dialect statement {@code outbox.lease}) and the fence a
 * cycle passes before the broker commits ({@link OutboxStore#proveClaim}), on a real database.
 *
 * <ul>
 *   <li>A claim whose transaction stays idle for longer than its lease (a frozen gateway) is ended by the database:
 *       its rows go to the next claim after the lease and not before, and the frozen claim's fence then refuses.</li>
 *   <li>A claim that is not idle that long passes the fence, and the lease is gone from the pooled connection once the
 *       cycle's transaction ended (PostgreSQL: local to the transaction; MariaDB: reset after it).</li>
 *   <li>A fence whose own statement took the lease refuses on the clock, whatever the session says.</li>
 * </ul>
 */
abstract class ClaimLeaseContractTest extends OutboxStoreContract {

    private static final Duration LEASE = Duration.ofSeconds(1);

    /** The session's idle-in-transaction limit as the server reports it, in its own unit; 0 is none. */
    abstract long sessionIdleLimit(JdbcTemplate session);

    @Test
    void aClaimIdleForLongerThanItsLeaseIsEndedAndItsRowsGoToTheNextClaim() throws Exception {
        OutboxStore store = outbox.store(MarkMode.STATUS, schema.dataSource(), LEASE);
        List<Long> keys = outbox.insert(MarkMode.STATUS, "a", "b", "c");
        CountDownLatch claimed = new CountDownLatch(1);
        CountDownLatch wake = new CountDownLatch(1);
        AtomicLong claimedAt = new AtomicLong();
        AtomicReference<RuntimeException> fence = new AtomicReference<>();
        CompletableFuture<List<OutboxRow>> frozen = CompletableFuture.supplyAsync(() -> {
            try {
                return schema.inTransaction(tx -> {
                    List<OutboxRow> rows = store.claim(10, T0);
                    claimedAt.set(System.nanoTime());
                    claimed.countDown();
                    await(wake); // idle in its transaction, as a frozen gateway is
                    try {
                        store.proveClaim();
                    } catch (ClaimLostException e) {
                        fence.set(e);
                    }
                    tx.setRollbackOnly();
                    return rows;
                });
            } catch (RuntimeException e) {
                return null; // the rollback of a session the server ended fails too
            }
        });
        try {
            assertThat(claimed.await(30, TimeUnit.SECONDS)).isTrue();
            List<OutboxRow> taken = Awaitility.await("another claim takes the rows").atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> schema.inTransaction(tx -> store.claim(10, T0)), r -> !r.isEmpty());
            long afterMillis = (System.nanoTime() - claimedAt.get()) / 1_000_000;
            System.out.printf("%s: rows taken over %d ms after the claim went idle (lease %d ms)%n",
                    getClass().getSimpleName(), afterMillis, LEASE.toMillis());
            assertThat(keysOf(taken)).containsExactlyElementsOf(keys);
            // the server's idle timer starts when the claim's answer leaves it, a little before claimedAt
            assertThat(afterMillis).as("not before the lease").isGreaterThanOrEqualTo(LEASE.toMillis() - 50);
            assertThat(afterMillis).as("the lease and a few polls").isLessThan(LEASE.toMillis() + 5_000);
        } finally {
            wake.countDown();
        }
        frozen.get(30, TimeUnit.SECONDS);
        assertThat(fence.get()).as("the woken claim's fence").isInstanceOf(ClaimLostException.class)
                .hasMessageContaining("no longer answers");
    }

    @Test
    void aLiveClaimPassesTheFenceAndLeavesNoLeaseOnItsConnection() throws Exception {
        outbox.insert(MarkMode.STATUS, "a", "b");
        try (SingleConnectionDataSource one = new SingleConnectionDataSource(schema.url(),
                schema.database().username(), "", true)) {
            OutboxStore store = outbox.store(MarkMode.STATUS, one, LEASE);
            TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(one));
            JdbcTemplate session = new JdbcTemplate(one);
            long outside = sessionIdleLimit(session);
            long inside = tx.execute(s -> {
                assertThat(store.claim(10, T0)).hasSize(2);
                store.proveClaim();
                store.proveClaim(); // again, as before each message's commit when sent one at a time
                return sessionIdleLimit(session);
            });
            assertThat(inside).as("the lease in the cycle's transaction").isPositive();
            assertThat(sessionIdleLimit(session)).as("after it, as before").isEqualTo(outside);
        }
    }

    @Test
    void aFenceWhoseStatementTookTheLeaseRefusesOnTheClock() {
        outbox.insert(MarkMode.STATUS, "a");
        AtomicLong calls = new AtomicLong();
        // every reading of the clock a lease after the one before: the fence's statement took the whole lease (a
        // partition that healed, a pause of the gateway while it waited for the answer)
        ClaimLease lease = new ClaimLease(schema.jdbc(), schema.dialect(), LEASE,
                () -> calls.getAndIncrement() * LEASE.toNanos());
        schema.inTransactionDo(tx -> {
            lease.begin();
            assertThatThrownBy(lease::prove).isInstanceOf(ClaimLostException.class)
                    .hasMessageContaining("after it was asked");
        });
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
