package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.camel.api.management.ManagedCamelContext;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The inbox route's steps as Hawtio shows them (route and processor statistics): the per-message ones
 * ({@code validate-<consumer>}, {@code applied-<consumer>}) count messages, the per-batch ones
 * ({@code batch-<consumer>}, {@code inbox-<consumer>}, {@code processed-<consumer>}) count batches.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class InboxStepsCountMessagesTest extends InboxTestSupport {

    private final EnvelopeCodec codec = new EnvelopeCodec();

    @Test
    void perMessageStepsCountMessagesAndPerBatchStepsCountBatches() {
        String queue = unique("it.steps");
        String consumer = unique("wallet");
        List<EventEnvelope> valid = List.of(orderCreated("alice", "1"), orderCreated("bob", "2"),
                orderCreated("carol", "3"), orderCreated("alice", "4"));
        // queued before the consumer starts, one session: batches of two, {1, malformed}, {2, 3}, {4}
        sendRaw(queue, List.of(codec.write(valid.get(0)), "{\"specversion\":\"1.0\",\"id\":",
                codec.write(valid.get(1)), codec.write(valid.get(2)), codec.write(valid.get(3))));
        startConsumer(consumer, queue, Map.of("batchSize", "2", "concurrentConsumers", "1"));

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> counter("gateway.inbox.applied", consumer) == 4);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(queue) == 0);
        assertThat(effects()).isEqualTo(4);
        assertThat(deadLetters(queue)).hasSize(1);

        ManagedCamelContext managed = camel.getCamelContextExtension().getContextPlugin(ManagedCamelContext.class);
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> managed.getManagedProcessor("processed-" + consumer).getExchangesCompleted() == 3);
        assertThat(completed(managed, "batch-" + consumer)).as("batches").isEqualTo(3);
        assertThat(completed(managed, "validate-" + consumer)).as("messages received").isEqualTo(5);
        assertThat(completed(managed, "inbox-" + consumer)).as("database transactions, one per batch").isEqualTo(3);
        assertThat(completed(managed, "applied-" + consumer)).as("messages applied").isEqualTo(4);
        assertThat(managed.getManagedRoute(InboxConsumerTemplate.ROUTE_PREFIX + consumer).getExchangesCompleted())
                .as("the route's exchanges are the batches").isEqualTo(3);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).isZero();
    }

    private static long completed(ManagedCamelContext managed, String processor) {
        return managed.getManagedProcessor(processor).getExchangesCompleted();
    }
}
