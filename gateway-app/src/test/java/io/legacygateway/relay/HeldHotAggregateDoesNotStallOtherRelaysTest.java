package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * Two relays on one table, one hot aggregate: relay B holds a batch with the head of aggregate X (published, not marked:
 * held there by a hook), and more than {@code batchSize} rows of X wait behind it before any row of another aggregate.
 * Relay A must still publish the other aggregates' rows, in order, while B holds X; X's rows wait for B and then follow
 * in order. Before, A's claim returned only X's held-back rows, every cycle: A published nothing while B held its batch.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class HeldHotAggregateDoesNotStallOtherRelaysTest extends RelayTestSupport {

    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final ExecutorService threads = Executors.newFixedThreadPool(1);

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void whileAnotherRelayHoldsTheHeadOfAHotAggregateTheOtherAggregatesMove() throws Exception {
        String queue = unique("it.hot");
        List<String> x = new ArrayList<>();
        for (int i = 0; i < 18; i++) {
            x.add(rows.insert("hot-x", "OrderChanged", "{\"n\":" + i + "}")); // 5 for B's batch, 13 behind it
        }
        List<String> y = new ArrayList<>();
        List<String> z = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            y.add(rows.insert("cold-y", "OrderChanged", "{\"n\":" + i + "}"));
            z.add(rows.insert("cold-z", "OrderChanged", "{\"n\":" + i + "}"));
        }
        OutboxRelay b = relay(unique("b"), "queue:" + queue, Map.of("batchSize", "5"));
        OutboxRelay a = relay(unique("a"), "queue:" + queue, Map.of("batchSize", "5"));
        faults.pauseAfterPublish(b.name());
        CompletableFuture<Integer> bDrain = CompletableFuture.supplyAsync(() -> drain(b), threads);
        faults.awaitPaused(b.name());
        assertThat(faults.publishedBatches(b.name())).containsExactly(x.subList(0, 5));

        // B holds X's head; 13 rows of X come next, more than A's batch: A must reach past them
        int published = drain(a);

        List<String> cold = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            cold.add(y.get(i));
            cold.add(z.get(i));
        }
        assertThat(published).as("rows relay A published while relay B held the head of hot-x").isEqualTo(8);
        assertThat(faults.publishedBatches(a.name()).stream().flatMap(List::stream).toList())
                .containsExactlyElementsOf(cold);
        assertThat(x.stream().filter(id -> "PUBLISHED".equals(rows.status(id)))).isEmpty();

        faults.release(b.name());
        assertThat(bDrain.get()).isEqualTo(18); // X's batch, then the rest of X, which A left to it in order
        assertThat(rows.count("PUBLISHED")).isEqualTo(26);
        Map<String, List<String>> seen = new LinkedHashMap<>();
        for (TextMessage m : broker.drain(queue)) {
            EventEnvelope e = codec.read(m.getText());
            seen.computeIfAbsent(e.subject(), k -> new ArrayList<>()).add(e.id());
        }
        assertThat(seen).containsEntry("hot-x", x).containsEntry("cold-y", y).containsEntry("cold-z", z).hasSize(3);
    }
}
