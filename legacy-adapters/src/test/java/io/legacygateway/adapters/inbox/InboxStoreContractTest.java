package io.legacygateway.adapters.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.adapters.testsupport.ContractDatabaseTest;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.dao.DuplicateKeyException;

/**
 * {@link InboxStore} on the gateway's inbox tables: {@code record} is true for the first delivery of a (message,
 * consumer) and false for every copy; {@code recordAll} returns exactly the ids inserted now; a concurrent transaction
 * inserting the same id waits for the first and then sees a duplicate, or inserts it when the first rolled back
 * (insert first, never check then insert). The sequence gate locks an aggregate's row for one transaction at a time,
 * advances, and parks messages ahead of their turn. Concurrency windows are held open by latches; the waiting
 * transaction is observed in the database's lock table, never assumed after a sleep.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class InboxStoreContractTest implements ContractDatabaseTest {

    static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    /**
     * Lock waits are read from MariaDB's INNODB_TRX, a cache InnoDB refills only when it has not been read for 0.1 s:
     * polled more often, it would never show the wait.
     */
    static final Duration LOCK_WAIT_POLL = Duration.ofMillis(150);

    TestSchema schema;
    InboxStore inbox;

    /**
     * Whether an insert racing another transaction's uncommitted insert of the same key fails on the primary key
     * instead of waiting and reading it (H2, whose insert-unless-present cannot see the other transaction's row; see
     * its {@code inbox.record}): the copy of a first delivery, and the first messages of a new aggregate at the gate.
     */
    boolean aRacingCopyFailsOnTheKey() {
        return false;
    }

    @BeforeAll
    void createSchema() {
        schema = TestSchema.create(database(), getClass(), GatewaySchema.INBOX);
        inbox = new InboxStore(schema.dataSource(), schema.dialect(), stored("inbox"), stored("inbox_sequence"),
                stored("inbox_parked"));
    }

    /** The table's name as the database stores it (H2: upper case), as the consumer finds it. */
    TableName stored(String table) {
        return TableInspector.inspect(schema.dataSource(), schema.dialect(), new TableName(null, table), "table").name();
    }

    @AfterAll
    void dropSchema() throws Exception {
        schema.close();
    }

    @BeforeEach
    void empty() {
        for (String table : List.of("inbox", "inbox_sequence", "inbox_parked")) {
            schema.jdbc().update("DELETE FROM " + table);
        }
    }

    private boolean record(String id, String consumer) {
        return schema.inTransaction(tx -> inbox.record(id, consumer, T0));
    }

    private int rows() {
        return schema.jdbc().queryForObject("SELECT count(*) FROM inbox", Integer.class);
    }

    @Test
    void theFirstDeliveryIsRecordedAndEveryCopyIsADuplicatePerConsumer() {
        assertThat(record("m-1", "billing")).isTrue();
        assertThat(record("m-1", "billing")).isFalse();
        assertThat(record("m-1", "billing")).isFalse();
        assertThat(record("m-1", "shipping")).as("another consumer takes it once too").isTrue();
        assertThat(rows()).isEqualTo(2);
        assertThat(inbox.applied("billing", List.of("m-1", "m-2"))).containsExactly("m-1");
    }

    @Test
    void aRecordThatRollsBackLeavesTheNextDeliveryFirst() {
        assertThatThrownBy(() -> schema.inTransactionDo(tx -> {
            assertThat(inbox.record("m-1", "billing", T0)).isTrue();
            throw new IllegalStateException("the effect failed");
        })).hasMessage("the effect failed");
        assertThat(record("m-1", "billing")).isTrue();
        assertThat(rows()).isEqualTo(1);
    }

    @Test
    void recordAllReturnsExactlyTheIdsInsertedNow() {
        assertThat(record("m-2", "billing")).isTrue();

        assertThat(schema.<Set<String>>inTransaction(tx -> inbox.recordAll(List.of("m-3", "m-1", "m-2", "m-1"), "billing", T0)))
                .containsExactlyInAnyOrder("m-1", "m-3");
        assertThat(schema.<Set<String>>inTransaction(tx -> inbox.recordAll(List.of("m-1", "m-2", "m-3"), "billing", T0)))
                .isEmpty();
        assertThat(schema.<Set<String>>inTransaction(tx -> inbox.recordAll(List.of(), "billing", T0))).isEmpty();
        assertThat(rows()).isEqualTo(3);
    }

    @Test
    void idsOutsideTheirColumnsAreRefusedBeforeAnyWrite() {
        assertThatThrownBy(() -> inbox.record("x".repeat(InboxStore.MAX_MESSAGE_ID_LENGTH + 1), "billing", T0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("message id must be 1-255");
        assertThatThrownBy(() -> inbox.record(" ", "billing", T0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> inbox.recordAll(List.of("m-1", ""), "billing", T0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> inbox.record("m-1", "c".repeat(65), T0)).hasMessageContaining("consumer must be 1-64");
        assertThat(rows()).isZero();
    }

    /**
     * Runs {@code racing} in another thread's transaction while this thread's transaction has recorded m-1 and stays
     * open; once the racing one waits for our row lock, this one commits or rolls back.
     */
    private <T> CompletableFuture<T> racingAFirstDelivery(boolean commit, Supplier<T> racing) throws Exception {
        CountDownLatch recorded = new CountDownLatch(1);
        CompletableFuture<T> copy = new CompletableFuture<>();
        try {
            schema.inTransactionDo(tx -> {
                assertThat(inbox.record("m-1", "billing", T0)).isTrue();
                recorded.countDown();
                CompletableFuture.runAsync(() -> {
                    try {
                        copy.complete(schema.inTransaction(t -> racing.get()));
                    } catch (RuntimeException e) {
                        copy.completeExceptionally(e);
                    }
                });
                await().atMost(Duration.ofSeconds(20)).pollInterval(LOCK_WAIT_POLL)
                        .until(() -> schema.lockWaits() == 1 || copy.isDone());
                assertThat(copy).as("the copy waits for the first delivery's transaction").isNotDone();
                if (!commit) {
                    tx.setRollbackOnly();
                }
            });
        } finally {
            recorded.countDown();
        }
        return copy;
    }

    @Test
    void aCopyRacingAFirstDeliveryWaitsForItAndThenIsADuplicate() throws Exception {
        CompletableFuture<Boolean> copy = racingAFirstDelivery(true, () -> inbox.record("m-1", "billing", T0));

        if (aRacingCopyFailsOnTheKey()) {
            assertThatThrownBy(() -> copy.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(DuplicateKeyException.class);
        } else {
            assertThat(copy.get(20, TimeUnit.SECONDS)).isFalse();
        }
        assertThat(rows()).isEqualTo(1);
    }

    @Test
    void aCopyRacingAFirstDeliveryThatRollsBackIsTheFirst() throws Exception {
        CompletableFuture<Boolean> copy = racingAFirstDelivery(false, () -> inbox.record("m-1", "billing", T0));

        assertThat(copy.get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(rows()).isEqualTo(1);
    }

    @Test
    void aBatchRacingAFirstDeliveryInsertsOnlyTheOthers() throws Exception {
        CompletableFuture<Set<String>> copy = racingAFirstDelivery(true,
                () -> inbox.recordAll(List.of("m-0", "m-1", "m-2"), "billing", T0));

        if (aRacingCopyFailsOnTheKey()) {
            assertThatThrownBy(() -> copy.get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(DuplicateKeyException.class);
            assertThat(rows()).isEqualTo(1);
        } else {
            assertThat(copy.get(20, TimeUnit.SECONDS)).containsExactlyInAnyOrder("m-0", "m-2");
            assertThat(rows()).isEqualTo(3);
        }
    }

    @Test
    void theSequenceGateAdvancesPerAggregateAndParksWhatComesAheadOfItsTurn() {
        assertThat(schema.<Long>inTransaction(tx -> inbox.lockSequence("billing", "Order:1"))).isZero();
        schema.inTransactionDo(tx -> {
            assertThat(inbox.lockSequence("billing", "Order:1")).isZero();
            inbox.advanceSequence("billing", "Order:1", 1);
            inbox.park("billing", "Order:1", 3, "m-3", "{\"seq\":3}", T0);
        });
        assertThat(schema.<Long>inTransaction(tx -> inbox.lockSequence("billing", "Order:1"))).isEqualTo(1);
        assertThat(schema.<Long>inTransaction(tx -> inbox.lockSequence("billing", "Order:2"))).isZero();
        assertThat(schema.<Long>inTransaction(tx -> inbox.lockSequence("shipping", "Order:1"))).isZero();
        assertThat(inbox.parked("billing", "Order:1", 2)).isEmpty();
        assertThat(inbox.parked("billing", "Order:1", 3))
                .contains(new InboxStore.ParkedMessage("m-3", "{\"seq\":3}"));
        assertThat(inbox.parked("shipping", "Order:1", 3)).isEmpty();

        schema.inTransactionDo(tx -> inbox.unpark("billing", "Order:1", 3));
        assertThat(inbox.parked("billing", "Order:1", 3)).isEqualTo(Optional.empty());
        assertThat(schema.jdbc().queryForObject("SELECT count(*) FROM inbox_sequence", Integer.class)).isEqualTo(3);
    }

    /** Locks the aggregate in a transaction that advances it to 1 while another transaction locks it too. */
    private CompletableFuture<Long> racingTheGate() {
        CompletableFuture<Long> second = new CompletableFuture<>();
        schema.inTransactionDo(tx -> {
            assertThat(inbox.lockSequence("billing", "Order:1")).isZero();
            inbox.advanceSequence("billing", "Order:1", 1);
            CompletableFuture.runAsync(() -> {
                try {
                    second.complete(schema.inTransaction(t -> inbox.lockSequence("billing", "Order:1")));
                } catch (RuntimeException e) {
                    second.completeExceptionally(e);
                }
            });
            await().atMost(Duration.ofSeconds(20)).pollInterval(LOCK_WAIT_POLL)
                    .until(() -> schema.lockWaits() == 1 || second.isDone());
            assertThat(second).as("the second transaction waits for the aggregate's row").isNotDone();
        });
        return second;
    }

    @Test
    void oneAggregateIsGatedByOneTransactionAtATime() throws Exception {
        assertThat(schema.<Long>inTransaction(tx -> inbox.lockSequence("billing", "Order:1"))).isZero();

        assertThat(racingTheGate().get(20, TimeUnit.SECONDS)).as("and then reads the sequence the first advanced")
                .isEqualTo(1);
    }

    @Test
    void theFirstTwoMessagesOfANewAggregateAreGatedOneAfterTheOther() throws Exception {
        CompletableFuture<Long> second = racingTheGate();

        if (aRacingCopyFailsOnTheKey()) {
            assertThatThrownBy(() -> second.get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(DuplicateKeyException.class);
        } else {
            assertThat(second.get(20, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }

    @Test
    void retentionDeletesOnlyTheConsumersRowsProcessedBeforeTheCutoffInBatches() {
        schema.inTransactionDo(tx -> {
            inbox.record("m-1", "billing", T0);
            inbox.record("m-2", "billing", T0.plusSeconds(1));
            inbox.record("m-3", "billing", T0.plusSeconds(2));
            inbox.record("m-1", "shipping", T0);
            inbox.record("m-9", "billing", T0.plusSeconds(60));
        });

        assertThat(inbox.deleteProcessedBefore("billing", T0.plusSeconds(10), 2)).isEqualTo(2);
        assertThat(inbox.deleteProcessedBefore("billing", T0.plusSeconds(10), 2)).isEqualTo(1);
        assertThat(inbox.deleteProcessedBefore("billing", T0.plusSeconds(10), 2)).isZero();
        assertThat(inbox.applied("billing", List.of("m-1", "m-2", "m-3", "m-9"))).containsExactly("m-9");
        assertThat(inbox.applied("shipping", List.of("m-1"))).containsExactly("m-1");
    }

    @Test
    void anInboxWithoutAGateRefusesGateCalls() {
        InboxStore plain = new InboxStore(schema.dataSource(), schema.dialect(), stored("inbox"), null, null);
        assertThatThrownBy(() -> plain.lockSequence("billing", "Order:1")).hasMessage("this inbox has no sequence gate");
        assertThat(schema.<Boolean>inTransaction(tx -> plain.record("m-1", "billing", T0))).isTrue();
    }
}
