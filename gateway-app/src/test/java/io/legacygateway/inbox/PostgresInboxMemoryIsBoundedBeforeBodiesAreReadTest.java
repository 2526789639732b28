package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.OnPostgres;
import jakarta.jms.Message;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * What one inbox session holds in memory is bounded before bodies are read: a text message whose size on the broker
 * already exceeds {@code maxPayloadBytes} is dead-lettered without its text being read (before, it was read whole,
 * then measured), and a batch ends once its bodies reach {@code maxBatchBytes} (before, a batch kept up to
 * {@code batchSize} bodies, 100 of up to 64 MiB each).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnPostgres(dataSource = "target")
class PostgresInboxMemoryIsBoundedBeforeBodiesAreReadTest extends InboxTestSupport {

    private final EnvelopeCodec codec = new EnvelopeCodec();

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }

    @Test
    void aTextMessageTooLargeOnTheBrokerIsDeadLetteredUnread() throws Exception {
        String queue = unique("it.unread");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("maxPayloadBytes", "2048"));
        EventEnvelope healthy = orderCreated("alice", "3");
        String padded = codec.write(orderCreated("bob", "1"));
        // a regular message and an Artemis large message (over 100 KiB on the broker)
        String small = padded.replace("\"orderId\"", "\"padding\":\"" + "x".repeat(3000) + "\",\"orderId\"");
        String large = padded.replace("\"orderId\"", "\"padding\":\"" + "y".repeat(200_000) + "\",\"orderId\"");
        sendRaw(queue, List.of(small, large, codec.write(healthy)));

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> deadLetters(queue).size() == 2
                && count(queue) == 0);
        for (Message dead : deadLetters(queue)) {
            assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("PAYLOAD_TOO_LARGE");
            assertThat(property(dead, DeadLetterWriter.REASON)).contains("bytes on the broker")
                    .endsWith("exceeds maxPayloadBytes 2048; not read");
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> effects(healthy.id()) == 1);
        assertThat(effects()).isEqualTo(1);
    }

    @Test
    void aBatchEndsOnceItsBodiesReachMaxBatchBytes() {
        String queue = unique("it.budget");
        String consumer = unique("wallet");
        List<EventEnvelope> events = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            events.add(orderCreated("alice", "1"));
        }
        int bytesEach = 2 * codec.write(events.get(0)).length(); // UTF-16 on the broker
        // all 20 are queued before the consumer starts: without a budget they would make one batch
        send(queue, events.toArray(EventEnvelope[]::new));
        startConsumer(consumer, queue, Map.of("maxBatchBytes", Integer.toString(Math.max(1024, 3 * bytesEach)),
                "batchWait", "200ms"));

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> effects() == 20 && count(queue) == 0);
        var batches = meters.find("gateway.inbox.processing").tag("consumer", consumer).timer();
        assertThat(batches).isNotNull();
        assertThat(batches.count()).as("batches of at most 3-4 messages (the one reaching the budget ends it)")
                .isGreaterThanOrEqualTo(5);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).isZero();
    }
}
