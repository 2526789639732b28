package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.QueueProbe;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * Two relays on one outbox table (two gateway instances): they claim disjoint rows, every row reaches the broker once,
 * and the rows of one aggregate reach it in outbox order even when the relays run side by side.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class ConcurrentRelaysClaimDisjointRowsTest extends RelayTestSupport {

    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void whileOneRelayHoldsItsBatchTheOtherClaimsDisjointRows() throws Exception {
        String queue = unique("it.disjoint");
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            first.add(rows.insert("a-" + (i % 5), "OrderChanged", "{\"n\":" + i + "}"));
        }
        for (int i = 0; i < 50; i++) {
            second.add(rows.insert("b-" + (i % 5), "OrderChanged", "{\"n\":" + i + "}"));
        }
        OutboxRelay one = relay(unique("one"), "queue:" + queue, Map.of("batchSize", "50"));
        OutboxRelay two = relay(unique("two"), "queue:" + queue, Map.of("batchSize", "50"));
        faults.pauseAfterPublish(one.name());

        CompletableFuture<Integer> oneDrain = CompletableFuture.supplyAsync(() -> drain(one), threads);
        faults.awaitPaused(one.name());
        // relay one holds the first 50 rows (published, not marked); relay two must skip them and take the rest
        assertThat(drain(two)).isEqualTo(50);
        faults.release(one.name());
        assertThat(oneDrain.get()).isEqualTo(50);

        assertThat(faults.publishedBatches(one.name())).containsExactly(first);
        assertThat(faults.publishedBatches(two.name())).containsExactly(second);
        assertThat(lockedBy(first)).containsOnly(one.name());
        assertThat(lockedBy(second)).containsOnly(two.name());
        assertThat(broker.count(queue)).isEqualTo(100);
    }

    @Test
    void rowsOfOneAggregateArePublishedInOutboxOrderWhileTwoRelaysRunSideBySide() throws Exception {
        String queue = unique("it.race");
        Map<String, List<String>> expected = new HashMap<>();
        for (int i = 0; i < 60; i++) {
            for (int a = 0; a < 10; a++) {
                String aggregate = "order-" + a;
                expected.computeIfAbsent(aggregate, k -> new ArrayList<>())
                        .add(rows.insert(aggregate, "OrderChanged", "{\"n\":" + i + "}"));
            }
        }
        OutboxRelay one = relay(unique("race-one"), "queue:" + queue, Map.of("batchSize", "25"));
        OutboxRelay two = relay(unique("race-two"), "queue:" + queue, Map.of("batchSize", "25"));

        // both relays poll until the table is drained, as two gateway instances would
        CompletableFuture<Void> a = CompletableFuture.runAsync(() -> pollUntilDrained(one), threads);
        CompletableFuture<Void> b = CompletableFuture.runAsync(() -> pollUntilDrained(two), threads);
        CompletableFuture.allOf(a, b).get();

        List<TextMessage> messages = broker.drain(queue);
        assertThat(messages).hasSize(600);
        assertThat(new HashSet<>(messages.stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList()))
                .hasSize(600);
        Map<String, List<String>> seen = new HashMap<>();
        for (TextMessage m : messages) {
            EventEnvelope e = codec.read(m.getText());
            seen.computeIfAbsent(e.subject(), k -> new ArrayList<>()).add(e.id());
        }
        assertThat(seen).isEqualTo(expected);
        assertThat(rows.count("PUBLISHED")).isEqualTo(600);
    }

    private void pollUntilDrained(OutboxRelay relay) {
        Awaitility.await().atMost(Duration.ofMinutes(2)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                .until(() -> {
                    drain(relay);
                    return rows.count("PENDING") == 0;
                });
    }

    private List<String> lockedBy(List<String> eventIds) {
        return eventIds.stream().map(id -> {
            Map<String, Object> row = rows.row(id);
            String by = (String) row.get(OutboxRelayContractTest.column(row, "locked_by"));
            return by.substring(0, by.indexOf('@'));
        }).toList();
    }
}
