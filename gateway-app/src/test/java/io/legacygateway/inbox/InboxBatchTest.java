package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import io.micrometer.core.instrument.Timer;
import jakarta.jms.Message;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The batch: messages queued before the consumer starts are received on one JMS session and applied in one database
 * transaction (one multi-row inbox insert), acknowledged by one JMS commit; and every guarantee of one message per
 * transaction holds inside a batch: the same id twice in one batch is applied once, a poison message is dead-lettered
 * alone on its first delivery while the rest is applied once, a statement that fails inside the JDBC batch of the
 * effects is found and decided for alone, and the messages of one aggregate are applied in their order.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class InboxBatchTest extends InboxTestSupport {

    @DynamicPropertySource
    static void targetPool(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }

    private final EnvelopeCodec codec = new EnvelopeCodec();

    @Test
    void fiftyQueuedMessagesAreAppliedInOneDatabaseTransaction() {
        String queue = unique("it.batch");
        String consumer = unique("wallet");
        List<EventEnvelope> events = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            events.add(orderCreated(i % 2 == 0 ? "alice" : "bob", "1"));
        }
        send(queue, events.toArray(EventEnvelope[]::new));
        startConsumer(consumer, queue, Map.of());

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> counter("gateway.inbox.applied", consumer) == 50);
        assertThat(effects()).isEqualTo(50);
        assertThat(inboxRows(consumer)).isEqualTo(50);
        assertThat(transactions(consumer)).as("one transaction for the batch").isEqualTo(1);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(queue) == 0);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).isZero();
    }

    @Test
    void theSameIdTwiceInOneBatchIsAppliedOnce() {
        String queue = unique("it.batch-dup");
        String consumer = unique("wallet");
        EventEnvelope twice = orderCreated("alice", "10");
        EventEnvelope other = orderCreated("bob", "1");
        sendRaw(queue, List.of(codec.write(twice), codec.write(other), codec.write(twice)));
        startConsumer(consumer, queue, Map.of());

        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> counter("gateway.inbox.duplicates", consumer) == 1);
        assertThat(transactions(consumer)).as("the three in one transaction").isEqualTo(1);
        assertThat(effects(twice.id())).as("effect once").isEqualTo(1);
        assertThat(effects(other.id())).isEqualTo(1);
        assertThat(counter("gateway.inbox.applied", consumer)).isEqualTo(2.0);
        assertThat(inboxRows(consumer)).isEqualTo(2);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).isZero();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(queue) == 0);
    }

    @Test
    void aPoisonMessageInABatchIsDeadLetteredAloneOnItsFirstDeliveryAndTheRestAppliedOnce() throws Exception {
        String queue = unique("it.batch-poison");
        String consumer = unique("wallet");
        List<String> bodies = new ArrayList<>();
        List<EventEnvelope> properties = new ArrayList<>();
        List<EventEnvelope> healthy = new ArrayList<>();
        EventEnvelope noSuchCustomer = event("OrderPaid", "order-x", "nobody", "5", null);
        for (int i = 0; i < 20; i++) {
            if (i == 7) {
                bodies.add(codec.write(noSuchCustomer));
                properties.add(noSuchCustomer);
            } else if (i == 13) {
                bodies.add("{\"specversion\":\"1.0\",\"id\":");
                properties.add(null);
            } else {
                EventEnvelope e = orderCreated(i % 2 == 0 ? "alice" : "bob", "1");
                healthy.add(e);
                bodies.add(codec.write(e));
                properties.add(e);
            }
        }
        sendRaw(queue, bodies, properties.toArray(EventEnvelope[]::new));
        startConsumer(consumer, queue, Map.of("requireRows", "true"));

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> deadLetters(queue).size() == 2
                && counter("gateway.inbox.applied", consumer) == 18);
        List<Message> dead = deadLetters(queue);
        assertThat(dead).extracting(m -> property(m, DeadLetterWriter.REASON_CLASS))
                .containsExactlyInAnyOrder("BUSINESS_RULE", "MALFORMED_ENVELOPE");
        for (Message m : dead) {
            assertThat(m.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).as("first delivery").isEqualTo(1);
        }
        assertThat(dead).filteredOn(m -> "BUSINESS_RULE".equals(property(m, DeadLetterWriter.REASON_CLASS)))
                .extracting(m -> property(m, "ce_id")).containsExactly(noSuchCustomer.id());
        for (EventEnvelope e : healthy) {
            assertThat(effects(e.id())).as(e.id()).isEqualTo(1);
        }
        assertThat(effects()).isEqualTo(18);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("nothing went back to the broker").isZero();
        assertThat(transactions(consumer)).as("the batch, then the batch without the poison").isEqualTo(2);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(queue) == 0);
    }

    @Test
    void theMessagesOfEachAggregateAreAppliedInTheirOrderAcrossBatchesAndSessions() {
        String queue = unique("it.batch-order");
        String consumer = unique("wallet");
        List<EventEnvelope> events = new ArrayList<>();
        for (long seq = 1; seq <= 60; seq++) {
            for (String customer : List.of("alice", "bob", "carol")) {
                events.add(event("OrderPaid", customer, customer, "1", seq));
            }
        }
        send(queue, events.subList(0, 90).toArray(EventEnvelope[]::new));
        startConsumer(consumer, queue, Map.of("concurrentConsumers", "4", "batchSize", "25",
                "effectSql.OrderPaid", "UPDATE wallet SET history = CONCAT(history, :data.seq, ',') "
                        + "WHERE customer_id = :data.customerId"));
        send(queue, events.subList(90, events.size()).toArray(EventEnvelope[]::new));

        Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> counter("gateway.inbox.applied", consumer) == events.size());
        String expected = IntStream.rangeClosed(1, 60).mapToObj(i -> i + ",").collect(Collectors.joining());
        for (String customer : List.of("alice", "bob", "carol")) {
            assertThat(target.queryForObject("SELECT history FROM wallet WHERE customer_id = ?", String.class,
                    customer)).as(customer).isEqualTo(expected);
        }
        assertThat(counter("gateway.inbox.rollbacks", consumer)).isZero();
    }

    /**
     * The effects of a batch run as one JDBC batch; when one statement of it fails (the driver does not say which), the
     * same messages are applied again one by one to find it; that message alone is decided for.
     */
    @Test
    void aStatementFailingInsideTheJdbcBatchOfEffectsIsFoundOneByOneAndTheRestAppliedOnce() throws Exception {
        String queue = unique("it.batch-statement");
        String consumer = unique("wallet");
        List<EventEnvelope> events = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            // effect_log.amount is DECIMAL(12,2): 10^11 overflows it, in the statement, on both databases
            events.add(orderCreated(i % 2 == 0 ? "alice" : "bob", i == 4 ? "100000000000" : "1"));
        }
        send(queue, events.toArray(EventEnvelope[]::new));
        startConsumer(consumer, queue, Map.of("maxDeliveryAttempts", "1"));

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> deadLetters(queue).size() == 1
                && counter("gateway.inbox.applied", consumer) == 9);
        Message dead = deadLetters(queue).get(0);
        assertThat(property(dead, "ce_id")).isEqualTo(events.get(4).id());
        assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).as("a numeric overflow is the message's data")
                .isEqualTo("DATA_REFUSED");
        assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).as("first delivery").isEqualTo(1);
        for (int i = 0; i < events.size(); i++) {
            assertThat(effects(events.get(i).id())).as("event " + i).isEqualTo(i == 4 ? 0 : 1);
        }
        assertThat(inboxRows(consumer)).isEqualTo(9);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("nothing went back to the broker").isZero();
        // the JDBC batch fails, no statement named; one by one, the fifth fails, refused for its data: dead-lettered;
        // the other nine commit as a JDBC batch again
        assertThat(transactions(consumer)).isEqualTo(3);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(queue) == 0);
    }

    private long transactions(String consumer) {
        Timer t = meters.find("gateway.inbox.transaction").tag("consumer", consumer).timer();
        return t == null ? 0 : t.count();
    }
}
