package io.legacygateway.adapters.outbox.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.store.RejectionLog.Entry;
import io.legacygateway.adapters.outbox.store.RejectionLog.State;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.testsupport.ContractDatabaseTest;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@link RejectionLog}: one entry per source table and row key; recording a row again replaces its entry; RETRY
 * entries come due at their time, FAILED ones are parked until an operator's reset makes them due with no attempts
 * counted; entries of one source never show in another's; writes commit with the caller's transaction only. Times
 * are the relay's, read back exactly.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RejectionLogContractTest implements ContractDatabaseTest {

    static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    TestSchema schema;
    RejectionLog log;
    RejectionLog other;

    @BeforeAll
    void createSchema() {
        schema = TestSchema.create(database(), getClass(), GatewaySchema.RELAY);
        log = new RejectionLog(schema.dataSource(), schema.dialect(), "r1", "sales/outbox", "dataSource");
        other = new RejectionLog(schema.dataSource(), schema.dialect(), "r2", "billing/outbox", "dataSource");
    }

    @AfterAll
    void dropSchema() throws Exception {
        schema.close();
    }

    @BeforeEach
    void empty() {
        schema.jdbc().update("DELETE FROM " + RejectionLog.TABLE);
    }

    private static OutboxRow row(long key) {
        return new OutboxRow(key, key, "event-" + key, "Order", "o-" + key, "OrderCreated", 1, "{}", null, null, null,
                null, null, 0);
    }

    private void record(RejectionLog on, OutboxFailure... failures) {
        schema.inTransactionDo(tx -> on.record(List.of(failures), T0));
    }

    @Test
    void anEntryHoldsTheAttemptAndIsReplacedByTheNextOne() {
        record(log, new OutboxFailure(row(1), "broker refused", 1, T0.plusSeconds(10)));
        record(log, new OutboxFailure(row(1), "broker refused again", 2, T0.plusSeconds(40)));

        Map<String, Entry> entries = log.entries(List.of("1", "2"));
        assertThat(entries).containsOnlyKeys("1");
        assertThat(entries.get("1")).isEqualTo(new Entry("1", "event-1", "broker refused again", 2, State.RETRY,
                T0.plusSeconds(40), T0));
        assertThat(schema.jdbc().queryForObject("SELECT count(*) FROM " + RejectionLog.TABLE, Integer.class))
                .isEqualTo(1);
    }

    @Test
    void retryEntriesComeDueAtTheirTimeAndFailedOnesNever() {
        record(log, new OutboxFailure(row(1), "a", 1, T0.plusSeconds(10)),
                new OutboxFailure(row(2), "b", 1, T0.plusSeconds(20)),
                new OutboxFailure(row(3), "c", 5, null));

        assertThat(log.due(T0.plusSeconds(9), 10)).isEmpty();
        assertThat(log.due(T0.plusSeconds(10), 10)).extracting(Entry::rowKey).containsExactly("1");
        assertThat(log.due(T0.plusSeconds(3600), 10)).extracting(Entry::rowKey).containsExactly("1", "2");
        assertThat(log.due(T0.plusSeconds(3600), 1)).hasSize(1);
        assertThat(log.failed(10)).extracting(Entry::rowKey, Entry::state, Entry::attempts, Entry::nextRetryAt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("3", State.FAILED, 5, null));
        assertThat(log.countFailed()).isEqualTo(1);
    }

    @Test
    void anOperatorsResetMakesOnlyFailedEntriesDueWithNoAttempts() {
        record(log, new OutboxFailure(row(1), "a", 1, T0.plusSeconds(10)), new OutboxFailure(row(3), "c", 5, null));

        assertThat(schema.<Integer>inTransaction(tx -> log.reset(List.of("1", "3", "9")))).isEqualTo(1);

        Entry reset = log.entries(List.of("3")).get("3");
        assertThat(reset.state()).isEqualTo(State.RETRY);
        assertThat(reset.attempts()).isZero();
        assertThat(reset.nextRetryAt()).isNull();
        assertThat(log.due(T0, 10)).extracting(Entry::rowKey).containsExactly("3");
        assertThat(log.countFailed()).isZero();
        assertThat(log.entries(List.of("1")).get("1").attempts()).as("a RETRY entry is left alone").isEqualTo(1);
    }

    @Test
    void clearRemovesTheEntriesOfPublishedRowsOnly() {
        record(log, new OutboxFailure(row(1), "a", 1, T0), new OutboxFailure(row(2), "b", 1, T0));

        schema.inTransactionDo(tx -> log.clear(List.of("1")));

        assertThat(log.entries(List.of("1", "2"))).containsOnlyKeys("2");
    }

    @Test
    void entriesOfOneSourceNeverShowInAnother() {
        record(log, new OutboxFailure(row(1), "a", 1, null));
        record(other, new OutboxFailure(row(1), "b", 2, T0));

        assertThat(log.entries(List.of("1")).get("1").reason()).isEqualTo("a");
        assertThat(other.entries(List.of("1")).get("1").reason()).isEqualTo("b");
        assertThat(log.countFailed()).isEqualTo(1);
        assertThat(other.countFailed()).isZero();
        assertThat(other.due(T0, 10)).extracting(Entry::rowKey).containsExactly("1");
        schema.inTransactionDo(tx -> other.clear(List.of("1")));
        assertThat(log.entries(List.of("1"))).containsOnlyKeys("1");
    }

    @Test
    void anEntryCommitsWithTheCallersTransactionOnly() {
        assertThatThrownBy(() -> schema.inTransactionDo(tx -> {
            log.record(List.of(new OutboxFailure(row(1), "a", 1, null)), T0);
            throw new IllegalStateException("the cycle failed");
        })).hasMessage("the cycle failed");

        assertThat(log.entries(List.of("1"))).isEmpty();
    }

    @Test
    void aLongReasonIsCutToWhatTheTableHolds() {
        record(log, new OutboxFailure(row(1), "x".repeat(5000), 1, null));

        String reason = log.entries(List.of("1")).get("1").reason();
        assertThat(reason).hasSize(RejectionLog.MAX_REASON).endsWith("…");
    }

    @Test
    void moreKeysThanOneInListTakesAreReadInChunks() {
        OutboxFailure[] failures = new OutboxFailure[1200];
        for (int i = 0; i < failures.length; i++) {
            failures[i] = new OutboxFailure(row(i), "r", 1, null);
        }
        record(log, failures);

        List<String> keys = java.util.stream.IntStream.range(0, 1200).mapToObj(String::valueOf).toList();
        assertThat(log.entries(keys)).hasSize(1200);
        assertThat(schema.<Integer>inTransaction(tx -> log.reset(keys))).isEqualTo(1200);
    }
}
