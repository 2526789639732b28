package io.legacygateway.adapters.outbox.attempts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.legacygateway.adapters.outbox.attempts.AttemptLog.Entry;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
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
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * {@link AttemptLog}: a cycle's attempts are committed when {@code attempted} returns, before the broker commits the
 * batch (in a transaction of their own, also while the caller's transaction is open and later rolls back); a committed
 * cycle's finish commits with the cycle's transaction or not at all, and a rolled-back cycle's is written at once in a
 * transaction of its own; an attempt whose finish was never written reads SENT/NONE. Each reader returns exactly the
 * rows of its question.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AttemptLogContractTest implements ContractDatabaseTest {

    static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    TestSchema schema;

    @BeforeAll
    void createSchema() {
        schema = TestSchema.create(database(), getClass(), GatewaySchema.RELAY);
    }

    @AfterAll
    void dropSchema() throws Exception {
        schema.close();
    }

    @BeforeEach
    void empty() {
        schema.jdbc().update("DELETE FROM " + AttemptLog.TABLE);
        schema.jdbc().update("DELETE FROM " + AttemptLog.CYCLES);
        if (packs()) {
            schema.jdbc().update("DELETE FROM " + AttemptLog.PACKS);
        }
    }

    /** Whether this database's log packs a cycle's attempts in one row (relay-state.sql creates the table). */
    private boolean packs() {
        return schema.dialect().has("attempt.packed.insert");
    }

    private AttemptLog log(String relay) {
        return new AttemptLog(schema.dataSource(), new DataSourceTransactionManager(schema.dataSource()),
                schema.dialect(), relay, relay + "@host:1", "stateDataSource", schema.dataSource());
    }

    static OutboxRow row(long key) {
        return new OutboxRow(key, key, "event-" + key, "Order", "o-" + key, "OrderCreated", 1, "{}", null, null, null,
                null, null, 0);
    }

    static Attempt sent(long key) {
        return new Attempt(row(key), Observation.SENT, null);
    }

    private int count(String table) {
        return schema.jdbc().queryForObject("SELECT count(*) FROM " + table, Integer.class);
    }

    /** Attempts on record, read from the tables: one row each, or packed (elements of packs, not their overrides). */
    private int recorded() {
        if (!packs()) {
            return count(AttemptLog.TABLE);
        }
        return schema.jdbc().queryForObject("SELECT (SELECT count(*) FROM " + AttemptLog.TABLE + " WHERE NOT packed)"
                + " + (SELECT COALESCE(SUM(cardinality(row_keys)), 0) FROM " + AttemptLog.PACKS + ")", Integer.class);
    }

    @Test
    void theAttemptsAreOnRecordWhenAttemptedReturnsAndStayWhenTheCycleRollsBack() {
        AttemptLog log = log("r1");
        try {
            schema.inTransactionDo(tx -> {
                log.attempted("c1", List.of(sent(1), sent(2)), T0);
                assertThat(recorded()).as("committed on its own, seen from another connection")
                        .isEqualTo(2);
                throw new IllegalStateException("the cycle failed");
            });
        } catch (IllegalStateException expected) {
            // the relay's cycle rolled back; the attempts stay
        }
        log.finished("c1", BrokerAnswer.NO_ANSWER, false, List.of());

        Map<String, List<Entry>> attempts = log.attempts(List.of("1", "2"));
        assertThat(attempts.get("1")).singleElement().satisfies(e -> {
            assertThat(e.eventId()).isEqualTo("event-1");
            assertThat(e.aggregateKey()).isEqualTo("Order:o-1");
            assertThat(e.at()).isEqualTo(T0);
            assertThat(e.instance()).isEqualTo("r1@host:1");
            assertThat(e.cycle()).isEqualTo("c1");
            assertThat(e.observation()).isEqualTo(Observation.SENT);
            assertThat(e.markState()).isEqualTo(MarkState.ROLLED_BACK);
        });
        assertThat(attempts.get("2")).extracting(Entry::markState).containsExactly(MarkState.ROLLED_BACK);
    }

    @Test
    void aCommittedCyclesFinishCommitsWithTheCyclesTransaction() {
        AttemptLog log = log("r1");
        log.attempted("c1", List.of(sent(1), sent(2), sent(3)), T0);
        BrokerAnswer answer = new BrokerAnswer(Map.of("2", new Attempt(row(2), Observation.REFUSED, "too large")),
                Observation.CONFIRMED, null);
        schema.inTransactionDo(tx -> assertThat(log.finishInCycle("c1", answer, List.of("3"))).isTrue());
        log.finished("c1", answer, true, List.of("3"));

        assertThat(count(AttemptLog.CYCLES)).as("written once, by the cycle's transaction").isEqualTo(1);
        assertThat(log.attempts(List.of("1", "2", "3")).values()).flatExtracting(l -> l)
                .extracting(Entry::rowKey, Entry::observation, Entry::markState, Entry::detail)
                .containsExactly(tuple("1", Observation.CONFIRMED, MarkState.PUBLISHED, null),
                        tuple("2", Observation.REFUSED, MarkState.RETRY, "too large"),
                        tuple("3", Observation.CONFIRMED, MarkState.FAILED, null));
    }

    @Test
    void aFinishWrittenInACycleThatRollsBackIsRolledBackWithItAndWrittenAgainAsRolledBack() {
        AttemptLog log = log("r1");
        log.attempted("c1", List.of(sent(1), sent(2)), T0);
        BrokerAnswer answer = new BrokerAnswer(Map.of("2", new Attempt(row(2), Observation.REFUSED, "too large")),
                Observation.CONFIRMED, null);
        try {
            schema.inTransactionDo(tx -> {
                log.finishInCycle("c1", answer, List.of("2"));
                throw new IllegalStateException("the mark's commit failed");
            });
        } catch (IllegalStateException expected) {
            // the relay's cycle rolled back, its finish with it
        }
        assertThat(log.attempts(List.of("1")).get("1")).extracting(Entry::observation, Entry::markState)
                .as("nothing of the finish committed").containsExactly(tuple(Observation.SENT, MarkState.NONE));

        log.finished("c1", answer, false, List.of("2"));

        assertThat(log.attempts(List.of("1", "2")).values()).flatExtracting(l -> l)
                .extracting(Entry::rowKey, Entry::observation, Entry::markState)
                .containsExactly(tuple("1", Observation.CONFIRMED, MarkState.ROLLED_BACK),
                        tuple("2", Observation.REFUSED, MarkState.ROLLED_BACK));
    }

    @Test
    void aLogOnAnotherDatabaseWritesACommittedCyclesFinishAfterTheCycle() {
        AttemptLog log = new AttemptLog(schema.dataSource(), new DataSourceTransactionManager(schema.dataSource()),
                schema.dialect(), "r1", "r1@host:1", "stateDataSource", null);
        log.attempted("c1", List.of(sent(1)), T0);
        schema.inTransactionDo(tx -> assertThat(log.finishInCycle("c1", BrokerAnswer.NO_ANSWER, List.of()))
                .as("not the cycle's database").isFalse());
        assertThat(count(AttemptLog.CYCLES)).isZero();

        log.finished("c1", new BrokerAnswer(Map.of(), Observation.CONFIRMED, null), true, List.of());

        assertThat(log.attempts(List.of("1")).get("1")).extracting(Entry::observation, Entry::markState)
                .containsExactly(tuple(Observation.CONFIRMED, MarkState.PUBLISHED));
    }

    @Test
    void aCycleWhoseFinishWasNeverWrittenReadsSentAndNone() {
        log("r1").attempted("c1", List.of(sent(1)), T0);

        // the process died: a new log (the restarted relay) reads what is on record
        assertThat(log("r1").attempts(List.of("1")).get("1")).extracting(Entry::observation, Entry::markState)
                .containsExactly(tuple(Observation.SENT, MarkState.NONE));
    }

    @Test
    void aFinishOfACycleWithoutRecordedAttemptsWritesNothing() {
        AttemptLog log = log("r1");
        log.finished("never-attempted", BrokerAnswer.NO_ANSWER, false, List.of());
        log.attempted("c1", List.of(), T0);
        assertThat(recorded()).isZero();
        assertThat(count(AttemptLog.CYCLES)).isZero();
    }

    @Test
    void theReadersAnswerForTheirRelayAndTimeOnly() {
        AttemptLog log = log("r1");
        log.attempted("c1", List.of(sent(1), sent(2), new Attempt(row(3), Observation.NOT_SENT, "not JSON")), T0);
        log.finished("c1", new BrokerAnswer(Map.of(), Observation.FAILED, "broker down"), true, List.of());
        log.attempted("c2", List.of(sent(1), sent(2)), T0.plusSeconds(10));
        log.finished("c2", new BrokerAnswer(Map.of("2", new Attempt(row(2), Observation.DUPLICATE, null)),
                Observation.CONFIRMED, null), true, List.of());
        log.attempted("c3", List.of(sent(1)), T0.plusSeconds(20));
        log.finished("c3", new BrokerAnswer(Map.of(), Observation.CONFIRMED, null), true, List.of());
        AttemptLog otherRelay = log("r2");
        otherRelay.attempted("x1", List.of(sent(1), sent(5)), T0);
        otherRelay.attempted("x2", List.of(sent(5)), T0);

        assertThat(log.repeated(T0, 10)).as("row 1 was confirmed twice; row 2's first send failed")
                .containsExactly("1");
        assertThat(log.repeated(T0.plusSeconds(15), 10)).isEmpty();
        assertThat(log.duplicates(T0, 10)).containsExactly("2");
        assertThat(log.published(T0, 10)).as("newest first").containsExactly("1", "2");
        assertThat(log.published(T0, 1)).containsExactly("1");
        assertThat(otherRelay.repeated(T0, 10)).containsExactly("5");
        assertThat(log.attempts(List.of("3")).get("3")).extracting(Entry::observation, Entry::markState, Entry::detail)
                .containsExactly(tuple(Observation.NOT_SENT, MarkState.RETRY, "not JSON"));
    }

    @Test
    void retentionDeletesOldAttemptsInBatchesAndThenTheirCycles() {
        AttemptLog log = log("r1");
        log.attempted("c1", List.of(sent(1), sent(2), sent(3)), T0);
        log.finished("c1", new BrokerAnswer(Map.of(), Observation.CONFIRMED, null), true, List.of());
        log.attempted("c2", List.of(sent(4)), T0.plusSeconds(60));
        log.finished("c2", new BrokerAnswer(Map.of(), Observation.CONFIRMED, null), true, List.of());

        if (packs()) {
            assertThat(log.deleteBefore(T0.plusSeconds(1), 2)).as("the old cycle's pack, then its cycle").isEqualTo(2);
        } else {
            assertThat(log.deleteBefore(T0.plusSeconds(1), 2)).isEqualTo(2);
            assertThat(log.deleteBefore(T0.plusSeconds(1), 2)).as("the last old attempt, then its cycle").isEqualTo(2);
        }
        assertThat(log.deleteBefore(T0.plusSeconds(1), 2)).isZero();
        assertThat(recorded()).isEqualTo(1);
        assertThat(count(AttemptLog.CYCLES)).isEqualTo(1);
        assertThat(log.published(T0, 10)).containsExactly("4");
    }

    @Test
    void aBatchLargerThanOneInsertStatementIsRecordedWhole() {
        AttemptLog log = log("r1");
        List<Attempt> attempts = java.util.stream.LongStream.range(0, 4_000).mapToObj(AttemptLogContractTest::sent)
                .toList();
        log.attempted("c1", attempts, T0);
        assertThat(recorded()).isEqualTo(4_000);
    }
}
