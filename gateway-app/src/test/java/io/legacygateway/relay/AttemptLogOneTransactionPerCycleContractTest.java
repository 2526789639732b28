package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.testsupport.RelayFaults;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The attempt log writes one transaction per cycle: the finish of a committed cycle (broker answer, mark state) is
 * written with the next cycle's attempts, before that cycle's batch goes to the broker, or when the drain ends. Read
 * from the tables themselves (the log's own readers flush first), which is what a process killed at that moment leaves
 * (the events here are sent and take their cycle's answer).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class AttemptLogOneTransactionPerCycleContractTest extends RelayTestSupport {

    /** observation/mark state of each attempt at this event, oldest first. */
    private List<String> logged(String eventId) {
        return rows.attemptStates(eventId);
    }

    @Test
    void killedAfterTheNextCyclesInsertLeavesThePreviousCycleFinishedAndOnlyTheRunningOneSentNone() {
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

        assertThat(seen.get("first")).as("cycle 1's finish went with cycle 2's insert").containsExactly(
                "CONFIRMED/PUBLISHED");
        assertThat(seen.get("second")).as("the running cycle: may have been delivered").containsExactly("SENT/NONE");
        assertThat(logged(second)).as("the drain's failure wrote the rolled-back finish")
                .containsExactly("CONFIRMED/ROLLED_BACK");
        assertThat(rows.status(first)).isEqualTo("PUBLISHED");
        assertThat(rows.status(second)).isEqualTo("PENDING");
    }

    /**
     * No next cycle follows the drain: the last cycle's finish is written on its own, off the relay's thread, shortly
     * after ({@link AttemptEvidence#IDLE_FLUSH_DELAY_MILLIS}); a next cycle within that time carries it instead.
     */
    @Test
    void theLastCommittedCyclesFinishIsWrittenSoonAfterTheDrainEnds() {
        String name = unique("log-idle");
        String id = rows.insert("order-3", "OrderConfirmed", "{\"n\":3}");
        OutboxRelay relay = relay(name, "queue:" + unique("it.log"), Map.of());
        assertThat(drain(relay)).isEqualTo(1);
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(logged(id)).containsExactly("CONFIRMED/PUBLISHED"));
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
        rows.jdbc().execute("ALTER TABLE " + table + " RENAME TO gateway_outbox_attempt_away");
        try {
            assertThat(drain(relay)).isZero();
            assertThat(broker.count(queue)).as("nothing committed on the broker").isZero();
            assertThat(List.of(rows.status(first), rows.status(second))).containsExactly("PENDING", "PENDING");
            assertThat(List.of(rows.row(first).get("retry_count"), rows.row(second).get("retry_count")))
                    .as("no row charged").allMatch(n -> ((Number) n).intValue() == 0);
        } finally {
            rows.jdbc().execute("ALTER TABLE gateway_outbox_attempt_away RENAME TO " + table);
        }
        assertThat(drain(relay)).isEqualTo(2);
        assertThat(broker.count(queue)).isEqualTo(2);
        Awaitility.await().atMost(Duration.ofSeconds(10)) // the finish is written soon after the drain
                .untilAsserted(() -> assertThat(logged(first)).containsExactly("CONFIRMED/PUBLISHED"));
    }
}
