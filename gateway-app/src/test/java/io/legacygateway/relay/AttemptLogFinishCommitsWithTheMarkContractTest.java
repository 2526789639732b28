package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.testsupport.RelayFaults;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The attempt log writes a cycle's attempts in a transaction of their own, before the broker commits the batch, and
 * the cycle's finish (broker answer, mark state) in the cycle's transaction, with the mark: a committed mark always has
 * its finish, a cycle that never committed reads SENT/NONE (it may have been delivered). Read from the tables
 * themselves, which is what a process killed at that moment leaves (the events here are sent and take their cycle's
 * answer).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class AttemptLogFinishCommitsWithTheMarkContractTest extends RelayTestSupport {

    @Autowired
    MeterRegistry meters;

    /** observation/mark state of each attempt at this event, oldest first. */
    private List<String> logged(String eventId) {
        return rows.attemptStates(eventId);
    }

    /** Runs {@code checks} while {@code table} is renamed away (the log cannot write it), and renames it back. */
    private void whileRenamedAway(String table, Runnable checks) {
        rows.jdbc().execute("ALTER TABLE " + table + " RENAME TO " + table + "_away");
        try {
            checks.run();
        } finally {
            rows.jdbc().execute("ALTER TABLE " + table + "_away RENAME TO " + table);
        }
    }

    @Test
    void killedBeforeTheNextCyclesMarkLeavesThePreviousCycleFinishedAndOnlyTheRunningOneSentNone() {
        String name = unique("log-fold");
        String first = rows.insert("order-1", "OrderConfirmed", "{\"n\":1}");
        String second = rows.insert("order-2", "OrderConfirmed", "{\"n\":2}");
        Map<String, List<String>> seen = new HashMap<>();
        RelayCycleHook window = (relay, published) -> {
            if (published.get(0).eventId().equals(second)) { // cycle 2, broker confirmed, not marked: a kill here
                seen.put("first", logged(first));
                seen.put("second", logged(second));
                throw new RelayFaults.SimulatedCrash(relay);
            }
        };
        Map<String, Object> p = new HashMap<>(Map.of("relay", name, "dataSource", "legacy", "table", "outbox",
                "destination", "queue:" + unique("it.log"), "batchSize", "1", "payloadFormat", "JSON",
                "pendingStatus", "PENDING", "publishedStatus", "PUBLISHED", "failedStatus", "FAILED"));
        OutboxRelay relay = factory.create(p, List.of(window));
        assertThat(drain(relay)).isEqualTo(1);

        assertThat(seen.get("first")).as("cycle 1's finish committed with its mark").containsExactly(
                "CONFIRMED/PUBLISHED");
        assertThat(seen.get("second")).as("the running cycle: may have been delivered").containsExactly("SENT/NONE");
        assertThat(logged(second)).as("the drain's failure wrote the rolled-back finish")
                .containsExactly("CONFIRMED/ROLLED_BACK");
        assertThat(rows.status(first)).isEqualTo("PUBLISHED");
        assertThat(rows.status(second)).isEqualTo("PENDING");
    }

    /** No next cycle follows: the last cycle's finish is on record as soon as its cycle committed. */
    @Test
    void theLastCyclesFinishIsOnRecordWhenItsCycleCommits() {
        String name = unique("log-idle");
        String id = rows.insert("order-3", "OrderConfirmed", "{\"n\":3}");
        OutboxRelay relay = relay(name, "queue:" + unique("it.log"), Map.of());
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(logged(id)).containsExactly("CONFIRMED/PUBLISHED");
    }

    /**
     * The finish is part of the cycle's transaction: when it cannot be written (its table renamed away) the mark rolls
     * back with it, after the broker committed the batch. The rows stay pending, their attempts SENT/NONE (they may
     * have been delivered); once the finish can be written the relay sends them again, the broker drops the copies it
     * holds, and each event is on the queue once, the resend explained by the log.
     */
    @Test
    void aFinishThatCannotBeWrittenRollsTheMarkBackAndTheBrokerDropsTheResend() {
        String name = unique("log-nofinish");
        String queue = unique("it.log");
        String first = rows.insert("order-6", "OrderConfirmed", "{\"n\":6}");
        String second = rows.insert("order-7", "OrderConfirmed", "{\"n\":7}");
        OutboxRelay relay = relay(name, "queue:" + queue, Map.of());
        whileRenamedAway(AttemptLog.CYCLES, () -> {
            assertThat(drain(relay)).isZero();
            assertThat(broker.count(queue)).as("the broker committed the batch").isEqualTo(2);
            assertThat(List.of(rows.status(first), rows.status(second))).containsExactly("PENDING", "PENDING");
        });
        assertThat(logged(first)).as("no finish: may have been delivered").containsExactly("SENT/NONE");
        assertThat(drain(relay)).isEqualTo(2);
        assertThat(broker.count(queue)).as("each event once").isEqualTo(2);
        assertThat(List.of(rows.status(first), rows.status(second))).containsExactly("PUBLISHED", "PUBLISHED");
        assertThat(logged(first)).containsExactly("SENT/NONE", "CONFIRMED/PUBLISHED");
        assertThat(meters.counter("gateway.outbox.duplicate.ids", "relay", name).count())
                .as("the resend is on record: no unexplained duplicate").isZero();
    }

    /**
     * The attempts are written while the batch is sent, and the broker commits only after they committed: a log that
     * cannot be written (here: its table renamed away) rolls the broker's transaction back, so no event of the batch
     * reaches the queue, no row is marked or charged, and the relay delivers them once the log can be written again.
     */
    @Test
    void anAttemptLogThatCannotBeWrittenCommitsNothingOnTheBroker() {
        String name = unique("log-unwritable");
        String queue = unique("it.log");
        String first = rows.insert("order-4", "OrderConfirmed", "{\"n\":4}");
        String second = rows.insert("order-5", "OrderConfirmed", "{\"n\":5}");
        OutboxRelay relay = relay(name, "queue:" + queue, Map.of());
        String table = relay.attempts().packed() ? AttemptLog.PACKS : AttemptLog.TABLE; // where a cycle's insert goes
        whileRenamedAway(table, () -> {
            assertThat(drain(relay)).isZero();
            assertThat(broker.count(queue)).as("nothing committed on the broker").isZero();
            assertThat(List.of(rows.status(first), rows.status(second))).containsExactly("PENDING", "PENDING");
            assertThat(List.of(rows.row(first).get("retry_count"), rows.row(second).get("retry_count")))
                    .as("no row charged").allMatch(n -> ((Number) n).intValue() == 0);
        });
        assertThat(drain(relay)).isEqualTo(2);
        assertThat(broker.count(queue)).isEqualTo(2);
        assertThat(logged(first)).containsExactly("CONFIRMED/PUBLISHED");
    }
}
