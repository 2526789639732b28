package io.legacygateway.adapters.outbox.store;

import static io.legacygateway.adapters.outbox.store.OutboxFixture.keysOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCreator;
import org.springframework.jdbc.core.PreparedStatementSetter;
import org.springframework.jdbc.core.ResultSetExtractor;
import org.springframework.jdbc.core.SqlProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two relays on one table, each in its own transaction on its own connection: while the first holds its claim, the
 * second's claim skips the held rows ({@code FOR UPDATE SKIP LOCKED}) and returns the others, never waiting for the
 * first; and {@link OutboxStore#behindOtherRows} holds back a claimed row whose aggregate has an earlier waiting row
 * the other relay holds, so that one aggregate is never published out of order. The window is made deterministic by
 * a latch: the first transaction stays open until the second has claimed.
 */
abstract class OutboxStoreClaimsDisjointRowsContractTest extends OutboxStoreContract {

    /**
     * Whether the database's {@code SKIP LOCKED} skips only the rows another transaction holds in this mode's claim
     * (else it may return fewer rows, never a held one: the rows stay disjoint).
     */
    boolean skipsOnlyTheHeldRows(MarkMode mode) {
        return true;
    }

    /** Runs {@code second} in the main thread while another thread's transaction holds the claim {@code first}. */
    /** What each relay claimed: the first (which held its rows meanwhile) and the second's result. */
    private record Claims<T>(List<OutboxRow> first, T second) {
    }

    private <T> Claims<T> whileOneHolds(OutboxStore store, int firstLimit, Function<OutboxStore, T> second)
            throws Exception {
        CountDownLatch claimed = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<List<OutboxRow>> first = CompletableFuture.supplyAsync(() -> schema.inTransaction(tx -> {
            List<OutboxRow> rows = store.claim(firstLimit, T0);
            claimed.countDown();
            try {
                assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return rows;
        }));
        try {
            assertThat(claimed.await(30, TimeUnit.SECONDS)).as("the first relay claimed").isTrue();
            T result = schema.inTransaction(tx -> second.apply(store));
            release.countDown();
            return new Claims<>(first.get(30, TimeUnit.SECONDS), result);
        } finally {
            release.countDown();
        }
    }

    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP", "DELETE"})
    void whileOneRelayHoldsItsClaimTheOtherClaimsTheRestAndNeverTheSameRow(MarkMode mode) throws Exception {
        OutboxStore store = outbox.store(mode, true, false);
        List<Long> keys = outbox.insert(mode, "a", "b", "c", "d", "e", "f", "g", "h", "i", "j");

        Claims<List<OutboxRow>> both = whileOneHolds(store, 4, s -> s.claim(10, T0));

        List<Long> first = keysOf(both.first());
        List<Long> second = keysOf(both.second());
        assertThat(first).containsExactlyElementsOf(keys.subList(0, 4));
        assertThat(second).doesNotContainAnyElementsOf(first);
        if (skipsOnlyTheHeldRows(mode)) {
            assertThat(second).containsExactlyElementsOf(keys.subList(4, 10));
        }
    }

    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP", "DELETE"})
    void aRowBehindAnEarlierRowOfItsAggregateThatTheOtherRelayHoldsMustWait(MarkMode mode) throws Exception {
        OutboxStore store = outbox.store(mode, true, false);
        List<Long> keys = outbox.insert(mode, "x", "x", "y", "x");

        Claims<List<List<OutboxRow>>> both = whileOneHolds(store, 1, s -> {
            List<OutboxRow> claimed = s.claim(10, T0);
            return List.of(claimed, List.copyOf(s.behindOtherRows(claimed)));
        });

        assertThat(keysOf(both.first())).containsExactly(keys.get(0));
        List<List<OutboxRow>> second = both.second();
        assertThat(keysOf(second.get(0))).doesNotContain(keys.get(0));
        if (skipsOnlyTheHeldRows(mode)) {
            assertThat(keysOf(second.get(0))).containsExactly(keys.get(1), keys.get(2), keys.get(3));
            assertThat(keysOf(second.get(1))).as("x's later rows wait for the row the first relay holds")
                    .containsExactlyInAnyOrder(keys.get(1), keys.get(3));
        }
        assertThat(schema.<Set<OutboxRow>>inTransaction(tx -> store.behindOtherRows(store.claim(10, T0))))
                .as("alone, the relay holds every row and none waits").isEmpty();
    }

    /**
     * More waiting rows ahead of the claim than its first read takes ({@link AggregateOrder#readBound}): the check
     * falls back to its per-aggregate statement, and the row still waits.
     */
    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP", "DELETE"})
    void aRowBehindMoreHeldRowsThanTheFirstReadTakesStillWaits(MarkMode mode) throws Exception {
        List<String> aggregates = new ArrayList<>(List.of("x"));
        int ahead = AggregateOrder.readBound(2);
        for (int i = 0; i < ahead; i++) {
            aggregates.add("other-" + i);
        }
        aggregates.addAll(List.of("x", "y"));
        OutboxStore store = outbox.store(mode, true, false);
        List<Long> keys = outbox.insert(mode, aggregates.toArray(String[]::new));

        Claims<List<List<OutboxRow>>> both = whileOneHolds(store, ahead + 1, s -> {
            List<OutboxRow> claimed = s.claim(10, T0);
            return List.of(claimed, List.copyOf(s.behindOtherRows(claimed)));
        });

        assertThat(keysOf(both.first())).containsExactlyElementsOf(keys.subList(0, ahead + 1));
        if (skipsOnlyTheHeldRows(mode)) {
            List<List<OutboxRow>> second = both.second();
            assertThat(keysOf(second.get(0))).containsExactly(keys.get(ahead + 1), keys.get(ahead + 2));
            assertThat(keysOf(second.get(1))).as("x's later row waits for the row the first relay holds")
                    .containsExactly(keys.get(ahead + 1));
        }
    }

    /**
     * The ordering check's first step: a relay that holds every waiting row up to its last (alone, draining in order)
     * learns it from one count and reads no row; with an earlier row of a claimed aggregate held by another relay the
     * count is higher, and the check reads the waiting rows and holds the later row back.
     */
    @ParameterizedTest
    @EnumSource(value = MarkMode.class, names = {"STATUS", "TIMESTAMP", "DELETE"})
    void aRelayThatHoldsEveryWaitingRowUpToItsLastChecksTheOrderWithOneCount(MarkMode mode) throws Exception {
        OutboxStore store = outbox.store(mode, true, false);
        List<Long> keys = outbox.insert(mode, "x", "y", "x", "z");
        Map<String, String> byText = Map.of(store.statements().get("waitingCountUpTo").sql(), "waitingCountUpTo",
                store.statements().get("waitingUpTo").sql(), "waitingUpTo");
        List<String> ran = new ArrayList<>();
        AggregateOrder check = new AggregateOrder(new RecordingJdbc(schema.jdbc(), byText, ran), schema.dialect(),
                store.mapping(), store.statements());

        Set<OutboxRow> alone = schema.inTransaction(tx -> check.behindOtherRows(store.claim(10, T0)));

        assertThat(alone).isEmpty();
        assertThat(ran).containsExactly("waitingCountUpTo");

        ran.clear();
        Claims<List<List<OutboxRow>>> both = whileOneHolds(store, 1, s -> {
            List<OutboxRow> claimed = s.claim(10, T0);
            return List.of(claimed, List.copyOf(check.behindOtherRows(claimed)));
        });
        if (skipsOnlyTheHeldRows(mode)) {
            assertThat(ran).containsExactly("waitingCountUpTo", "waitingUpTo");
            assertThat(keysOf(both.second().get(1))).as("x's later row waits for the row the first relay holds")
                    .containsExactly(keys.get(2));
        }
    }

    /** A JdbcTemplate on the test's database that names the ordering check's statements it runs. */
    private static final class RecordingJdbc extends JdbcTemplate {
        private final Map<String, String> names;
        private final List<String> ran;

        RecordingJdbc(JdbcTemplate of, Map<String, String> names, List<String> ran) {
            super(of.getDataSource());
            this.names = names;
            this.ran = ran;
        }

        @Override
        public <T> T query(PreparedStatementCreator psc, PreparedStatementSetter pss, ResultSetExtractor<T> rse) {
            if (psc instanceof SqlProvider p) {
                ran.add(names.getOrDefault(p.getSql(), p.getSql()));
            }
            return super.query(psc, pss, rse);
        }
    }
}
