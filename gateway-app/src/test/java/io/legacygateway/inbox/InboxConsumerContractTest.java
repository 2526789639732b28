package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.envelope.EventEnvelope;
import jakarta.jms.Message;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.camel.builder.RouteBuilder;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

/**
 * What an inbox consumer guarantees on every database, written once; each real database runs it through a small
 * subclass. Broker: the embedded Artemis, configured from artemis-config/broker.xml.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class InboxConsumerContractTest extends InboxTestSupport {

    private static ConditionFactory await() {
        return Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50));
    }

    @Test
    void appliesEachEventOnceAndRecordsItInTheInbox() {
        String queue = unique("it.inbox");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope a = orderCreated("alice", "12.50");
        EventEnvelope b = orderCreated("bob", "7");
        send(queue, a, b);

        await().untilAsserted(() -> assertThat(effects()).isEqualTo(2));
        assertThat(effects(a.id())).isEqualTo(1);
        assertThat(target.queryForObject("SELECT amount FROM effect_log WHERE message_id = ?", BigDecimal.class,
                a.id())).isEqualByComparingTo("12.50");
        assertThat(target.queryForObject("SELECT consumer_name FROM inbox WHERE message_id = ?", String.class,
                b.id())).isEqualTo(consumer);
        assertThat(inboxRows(consumer)).isEqualTo(2);
        await().until(() -> count(queue) == 0);
        assertThat(counter("gateway.inbox.applied", consumer)).isEqualTo(2.0);
        assertThat(deadLetters(queue)).isEmpty();
    }

    @Test
    void aSecondDeliveryOfAnAppliedEventIsSkippedAndCounted() {
        String queue = unique("it.dup");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope e = orderCreated("alice", "5");
        send(queue, e);
        await().until(() -> effects(e.id()) == 1);

        send(queue, e);
        await().until(() -> counter("gateway.inbox.duplicates", consumer) == 1.0);
        assertThat(effects(e.id())).isEqualTo(1);
        assertThat(faults.outcomes(e.id())).containsExactly(InboxOutcome.APPLIED, InboxOutcome.DUPLICATE);
        await().until(() -> count(queue) == 0);
        assertThat(deadLetters(queue)).isEmpty();
    }

    @Test
    void twoConsumersOfOneEventEachApplyItOnce() {
        String queue = unique("it.two");
        String first = unique("wallet");
        String second = unique("ledger");
        startConsumer(first, queue + "-a", Map.of());
        startConsumer(second, queue + "-b", Map.of());
        EventEnvelope e = orderCreated("alice", "5");
        send(queue + "-a", e);
        send(queue + "-b", e);

        await().until(() -> effects(e.id()) == 2);
        assertThat(inboxRows(first)).isEqualTo(1);
        assertThat(inboxRows(second)).isEqualTo(1);
    }

    @Test
    void anEffectEndpointRunsInTheInboxTransaction() throws Exception {
        String queue = unique("it.endpoint");
        String consumer = unique("wallet");
        String endpoint = "direct:" + unique("apply");
        AtomicInteger calls = new AtomicInteger();
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(endpoint).process(x -> {
                    EventEnvelope e = x.getIn().getBody(EventEnvelope.class);
                    NamedParameterJdbcTemplate jdbc = x.getProperty(EndpointEffect.JDBC, NamedParameterJdbcTemplate.class);
                    jdbc.update("INSERT INTO effect_log (message_id, customer_id, amount) VALUES (:id, :c, :a)",
                            new MapSqlParameterSource("id", e.id()).addValue("c", e.data().get("customerId").asText())
                                    .addValue("a", e.data().get("amount").decimalValue()));
                    if (e.data().get("customerId").asText().equals("mallory")) {
                        throw new BusinessRuleViolationException("mallory may not order");
                    }
                    if (calls.incrementAndGet() == 1) {
                        throw new IllegalStateException("first call fails after its insert");
                    }
                });
            }
        });
        Map<String, String> p = new HashMap<>();
        p.put("effectSql.OrderCreated", null);
        p.put("effectEndpoint", endpoint);
        startConsumer(consumer, queue, p);
        EventEnvelope e = orderCreated("alice", "5");
        send(queue, e);

        await().until(() -> faults.outcomes(e.id()).size() == 1);
        // awaited, not asserted: with transactionMode XA the outcome is known before the two-phase commit ends
        await().until(() -> effects(e.id()) == 1);
        assertThat(calls.get()).as("rolled back once, by the broker's redelivery").isEqualTo(2);
        assertThat(faults.outcomes(e.id())).containsExactly(InboxOutcome.APPLIED);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).isEqualTo(1.0);

        EventEnvelope refused = orderCreated("mallory", "9");
        send(queue, refused);
        await().until(() -> deadLetters(queue).size() == 1);
        Message dead = deadLetters(queue).get(0);
        assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("BUSINESS_RULE");
        assertThat(property(dead, DeadLetterWriter.REASON)).isEqualTo("mallory may not order");
        assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).isEqualTo(1);
        assertThat(effects(refused.id())).as("its insert rolled back").isZero();
        assertThat(target.queryForObject("SELECT COUNT(*) FROM inbox WHERE message_id = ?", Integer.class,
                refused.id())).isZero();
    }

    @Test
    void anSqlEffectThatChangesNoRowIsABusinessRuleViolationWhenRowsAreRequired() throws Exception {
        String queue = unique("it.rows");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("requireRows", "true"));
        EventEnvelope paid = event("OrderPaid", "order-1", "bob", "3.25", null);
        EventEnvelope unknownCustomer = event("OrderPaid", "order-2", "nobody", "1", null);
        send(queue, paid, unknownCustomer);

        await().until(() -> deadLetters(queue).size() == 1);
        // XA commits the broker's branch (the copy) before the database's: the update may show a moment later
        await().untilAsserted(() -> assertThat(target.queryForObject("SELECT paid FROM wallet WHERE customer_id ="
                + " 'bob'", BigDecimal.class)).isEqualByComparingTo("3.25"));
        Message dead = deadLetters(queue).get(0);
        assertThat(property(dead, "ce_id")).isEqualTo(unknownCustomer.id());
        assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("BUSINESS_RULE");
        assertThat(property(dead, DeadLetterWriter.REASON)).contains("changed no row")
                .contains(":data.customerId=nobody");
        assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).isEqualTo(1);
    }

    @Test
    void anUnknownTypeOrVersionIsDeadLetteredOnItsFirstDeliveryAndNotApplied() throws Exception {
        String queue = unique("it.unknown");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope shipped = event("OrderShipped", "order-1", "alice", "1", null);
        EventEnvelope v2 = orderCreated("alice", "2");
        v2 = new EventEnvelope(v2.envelopeVersion(), v2.id(), v2.source(), v2.type(), v2.subject(), v2.time(),
                v2.dataContentType(), 2, v2.aggregateType(), null, null, null, v2.data());
        send(queue, shipped, v2);

        await().until(() -> deadLetters(queue).size() == 2);
        for (Message dead : deadLetters(queue)) {
            assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("UNKNOWN_TYPE");
            assertThat(property(dead, DeadLetterWriter.REASON)).contains("is not accepted by this consumer");
            assertThat(property(dead, DeadLetterWriter.ORIGINAL_ADDRESS)).isEqualTo(queue);
            assertThat(property(dead, DeadLetterWriter.CONSUMER)).isEqualTo(consumer);
            assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).isEqualTo(1);
        }
        assertThat(effects()).isZero();
        assertThat(inboxRows(consumer)).isZero();
        assertThat(count(queue)).isZero();
    }

    @Test
    void theSequenceGateParksEventsThatArriveAheadOfTheirTurnAndAppliesThemInOrder() throws Exception {
        String queue = unique("it.gate");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("sequence", "data.seq",
                "effectSql.OrderCreated", "UPDATE wallet SET total = total + :data.amount, "
                        + "history = CONCAT(history, :data.seq, ';') WHERE customer_id = :data.customerId"));
        EventEnvelope one = event("OrderCreated", "order-9", "carol", "1", 1L);
        EventEnvelope two = event("OrderCreated", "order-9", "carol", "2", 2L);
        EventEnvelope three = event("OrderCreated", "order-9", "carol", "3", 3L);
        send(queue, three, two);
        await().until(() -> counter("gateway.inbox.parked", consumer) == 2.0);
        // the counters are counted before an XA batch's two-phase commit ends: the rows are awaited
        await().until(() -> target.queryForObject("SELECT COUNT(*) FROM inbox_parked", Integer.class) == 2);
        assertThat(history("carol")).isEmpty();

        send(queue, one);
        await().until(() -> counter("gateway.inbox.released", consumer) == 2.0);
        await().until(() -> "1;2;3;".equals(history("carol")));
        assertThat(target.queryForObject("SELECT COUNT(*) FROM inbox_parked", Integer.class)).isZero();
        assertThat(target.queryForObject("SELECT last_sequence FROM inbox_sequence WHERE consumer_name = ?",
                Long.class, consumer)).isEqualTo(3L);

        EventEnvelope stale = event("OrderCreated", "order-9", "carol", "9", 2L);
        send(queue, stale);
        await().until(() -> deadLetters(queue).size() == 1);
        assertThat(property(deadLetters(queue).get(0), DeadLetterWriter.REASON_CLASS)).isEqualTo("SEQUENCE_CONFLICT");
        assertThat(history("carol")).isEqualTo("1;2;3;");
    }

    @Test
    void aSubscriptionQueueOfATopicIsConsumedByItsFullyQualifiedName() throws Exception {
        String address = unique("it.topic");
        String consumer = unique("billing");
        String subscription = unique("billing");
        try (jakarta.jms.Connection c = brokerConnectionFactory().createConnection();
             jakarta.jms.Session s = c.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE)) {
            ((org.apache.activemq.artemis.jms.client.ActiveMQSession) s).getCoreSession().createQueue(
                    org.apache.activemq.artemis.api.core.QueueConfiguration.of(subscription).setAddress(address)
                            .setRoutingType(org.apache.activemq.artemis.api.core.RoutingType.MULTICAST));
        }
        startConsumer(consumer, address + "::" + subscription, Map.of());
        EventEnvelope e = orderCreated("alice", "2");
        EventEnvelope unknown = event("OrderShipped", "order-1", "alice", "1", null);
        try (jakarta.jms.Connection c = brokerConnectionFactory().createConnection();
             jakarta.jms.Session s = c.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE);
             jakarta.jms.MessageProducer p = s.createProducer(s.createTopic(address))) {
            io.legacygateway.envelope.EnvelopeCodec codec = new io.legacygateway.envelope.EnvelopeCodec();
            p.send(s.createTextMessage(codec.write(e)));
            p.send(s.createTextMessage(codec.write(unknown)));
        }

        await().until(() -> deadLetters(address).size() == 1);
        assertThat(effects(e.id())).isEqualTo(1);
        Message dead = deadLetters(address).get(0);
        assertThat(property(dead, DeadLetterWriter.ORIGINAL_ADDRESS)).isEqualTo(address);
        assertThat(property(dead, DeadLetterWriter.ORIGINAL_QUEUE)).isEqualTo(subscription);
        assertThat(consumer(consumer).deadLetterQueue()).isEqualTo("DLQ." + address);
    }

    @Test
    void parametersThatDoNotFitFailNamingTheParameter() {
        String queue = unique("it.config");
        assertThatThrownBy(() -> create(Map.of("inboxTable", "no_such_inbox")))
                .hasMessageContaining("parameter 'inboxTable'").hasMessageContaining("does not exist");
        assertThatThrownBy(() -> create(Map.of("effectSql.OrderCreated", "INSERT INTO effect_log VALUES (:idd)")))
                .hasMessageContaining("parameter 'effectSql.OrderCreated'")
                .hasMessageContaining("unknown named parameter :idd");
        assertThatThrownBy(() -> create(Map.of("maxDeliveryAttempts", "7")))
                .hasMessageContaining("parameter 'maxDeliveryAttempts'")
                .hasMessageContaining("exceeds the broker's max-delivery-attempts 6");
        assertThatThrownBy(() -> create(Map.of("accept", "OrderCreated")))
                .hasMessageContaining("parameter 'accept'").hasMessageContaining("is not Type:version");
        assertThatThrownBy(() -> create(Map.of("effectSql.OrderShipped", "DELETE FROM wallet")))
                .hasMessageContaining("parameter 'effectSql.OrderShipped'").hasMessageContaining("not an accepted type");
        assertThatThrownBy(() -> create(Map.of("queue", queue + ";x")))
                .hasMessageContaining("parameter 'queue'");
        assertThatThrownBy(() -> create(Map.of("concurrentConsumers", "0")))
                .hasMessageContaining("parameter 'concurrentConsumers'");
        assertThatThrownBy(() -> create(Map.of("inboxTable", "inbox; DROP TABLE wallet")))
                .hasMessageContaining("parameter 'inboxTable'").hasMessageContaining("is not a safe SQL identifier");
    }

    private void create(Map<String, String> extra) {
        Map<String, Object> p = new HashMap<>(parameters(unique("bad"), unique("it.bad"), extra));
        factory.create(p, camel);
    }

    private String history(String customer) {
        String h = target.queryForObject("SELECT history FROM wallet WHERE customer_id = ?", String.class, customer);
        return h == null ? "" : h;
    }

    static List<String> ids(List<Message> messages) {
        return messages.stream().map(m -> property(m, "ce_id")).toList();
    }
}
