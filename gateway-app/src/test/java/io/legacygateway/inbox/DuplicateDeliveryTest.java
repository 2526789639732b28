package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
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
 * Failure window: two copies of one message (the broker's duplicate detection bypassed: different JMS messages, no
 * group, as after a duplicate-id cache eviction) are delivered at the same time to different sessions of a consumer
 * with 4 concurrent sessions. Both open their database transaction; the hook holds them until both are in it, then
 * both insert the inbox row. The primary key lets one through; the other waits for it and reads 0 rows. One effect,
 * one duplicate, no failure (on PostgreSQL no aborted transaction: the insert does not raise).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class DuplicateDeliveryTest extends InboxTestSupport {

    @DynamicPropertySource
    static void targetPool(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }

    private final EnvelopeCodec codec = new EnvelopeCodec();

    @Test
    void theSameMessageDeliveredTwiceAtOnceToFourConsumersIsAppliedOnce() {
        String queue = unique("it.dup-race");
        String consumer = unique("wallet");
        // the race is between two sessions, each copy in its own transaction: one copy per batch (two copies in one
        // batch are InboxBatchTest's case, applied once without any race)
        startConsumer(consumer, queue, Map.of("concurrentConsumers", "4", "batchSize", "1"));
        EventEnvelope e = orderCreated("alice", "10");
        faults.holdUntilConcurrent(e.id(), 2);
        String body = codec.write(e);
        sendRaw(queue, List.of(body, body));

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> faults.outcomes(e.id()).size() == 2);
        assertThat(faults.outcomes(e.id())).containsExactlyInAnyOrder(InboxOutcome.APPLIED, InboxOutcome.DUPLICATE);
        assertThat(faults.attempts(e.id())).as("both copies were in a transaction at once, neither retried")
                .isEqualTo(2);
        assertThat(effects(e.id())).isEqualTo(1);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).isZero();
    }

    @Test
    void twoHundredEventsEachDeliveredTwiceToFourConsumersAreAppliedOnceEach() {
        String queue = unique("it.dup-bulk");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("concurrentConsumers", "4"));
        List<EventEnvelope> events = new ArrayList<>();
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            EventEnvelope e = orderCreated(i % 2 == 0 ? "alice" : "bob", "1");
            events.add(e);
            bodies.add(codec.write(e));
            bodies.add(codec.write(e));
        }
        sendRaw(queue, bodies);

        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> counter("gateway.inbox.applied", consumer)
                + counter("gateway.inbox.duplicates", consumer) >= 400);
        assertThat(effects()).isEqualTo(200);
        assertThat(target.queryForObject("SELECT COUNT(*) FROM (SELECT message_id FROM effect_log GROUP BY message_id"
                + " HAVING COUNT(*) > 1) d", Integer.class)).as("events with more than one effect").isZero();
        assertThat(counter("gateway.inbox.applied", consumer)).isEqualTo(200.0);
        assertThat(counter("gateway.inbox.duplicates", consumer)).isEqualTo(200.0);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("no failed transaction").isZero();
        assertThat(deadLetters(queue)).isEmpty();
    }

    @Test
    void theConsumerMBeanSaysWhichMessagesItsInboxHasAlreadyApplied() throws Exception {
        String queue = unique("it.dup-jmx");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope e = orderCreated("bob", "5");
        send(queue, e);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> effects(e.id()) == 1);

        javax.management.MBeanServer mbeans = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName name = ConsumerOperatorSurface.name(consumer);
        assertThat(name.toString()).isEqualTo("io.legacygateway:type=Consumer,name=" + consumer);
        assertThat((String) mbeans.getAttribute(name, "Queue")).contains(queue);
        assertThat(mbeans.invoke(name, "applied", new Object[] {e.id() + ", never-sent"},
                new String[] {"java.lang.String"})).isEqualTo(java.util.List.of(e.id()));
    }
}
