package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.legacygateway.envelope.EnvelopeVersion;
import io.legacygateway.envelope.EventEnvelope;
import jakarta.jms.Message;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.camel.builder.RouteBuilder;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Versioned contracts: a consumer that accepts {@code OrderCreated:1,OrderCreated:2} with {@code upcast.OrderCreated.1}
 * applies a v1 event through the effect written for v2, once, with the upcast data and {@code eventversion} 2; a v2
 * event reaches the same effect unchanged; a version it does not accept is dead-lettered; an upcast that fails
 * dead-letters its message alone, at once, while the rest of its batch is applied once. Written once, run on each
 * real database with the embedded Artemis, with the default batch and (subclasses) one message per transaction.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class InboxUpcastContractTest extends InboxTestSupport {

    @DynamicPropertySource
    static void targetPool(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }

    /** The effect, written once, for version 2 of OrderCreated. */
    static final String V2_EFFECT = "INSERT INTO order_log (message_id, customer_id, amount, currency, event_version)"
            + " VALUES (:id, :data.customer.id, :data.total.amount, :data.total.currency, :eventversion)";
    static final String JQ_UPCAST = "jq:{orderId: .orderId, customer: {id: .customerId},"
            + " total: {amount: .amount, currency: \"EUR\"}}";
    /** A route upcast: bob's v1 data becomes text that is not JSON, carol's throws. */
    static final String ROUTE = "direct:upcast-order-created-v1-test";

    private final ObjectMapper json = new ObjectMapper();

    private static ConditionFactory await() {
        return Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50));
    }

    @BeforeEach
    void orderLog() throws Exception {
        target.execute("CREATE TABLE IF NOT EXISTS order_log (message_id VARCHAR(255) NOT NULL, customer_id"
                + " VARCHAR(64), amount DECIMAL(12,2), currency VARCHAR(3), event_version INT)");
        target.update("DELETE FROM order_log");
        if (camel.getRoute("upcast-order-created-v1-test") == null) {
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from(ROUTE).routeId("upcast-order-created-v1-test").process(e -> {
                        JsonNode v1 = json.readTree(e.getIn().getBody(String.class));
                        String customer = v1.get("customerId").asText();
                        if (customer.equals("carol")) {
                            throw new IllegalStateException("no v2 shape for carol's order");
                        }
                        if (customer.equals("bob")) {
                            e.getIn().setBody("customer bob, amount " + v1.get("amount"));
                            return;
                        }
                        Map<String, Object> total = new LinkedHashMap<>();
                        total.put("amount", v1.get("amount").decimalValue());
                        total.put("currency", "EUR");
                        e.getIn().setBody(Map.of("customer", Map.of("id", customer), "total", total));
                    });
                }
            });
        }
    }

    private Map<String, String> versioned(String upcast) {
        return Map.of("accept", "OrderCreated:1,OrderCreated:2,OrderPaid:1", "upcast.OrderCreated.1", upcast,
                "effectSql.OrderCreated", V2_EFFECT);
    }

    /** Version 2 of OrderCreated: the customer and the total as objects. */
    static EventEnvelope orderCreatedV2(String customer, String amount) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        String order = "order-" + UUID.randomUUID().toString().substring(0, 8);
        data.put("orderId", order);
        data.putObject("customer").put("id", customer);
        data.putObject("total").put("amount", new BigDecimal(amount)).put("currency", "EUR");
        return new EventEnvelope(EnvelopeVersion.V1, UUID.randomUUID().toString(), "urn:test", "OrderCreated", order,
                Instant.now(), EventEnvelope.JSON, 2, "Order", null, null, null, data);
    }

    static EventEnvelope withVersion(EventEnvelope e, int version) {
        return new EventEnvelope(e.envelopeVersion(), e.id(), e.source(), e.type(), e.subject(), e.time(),
                e.dataContentType(), version, e.aggregateType(), e.correlationId(), e.causationId(), e.traceparent(),
                e.data());
    }

    /** The row the v2 effect wrote for {@code id}: customer, amount, currency, event version. */
    private List<Map<String, Object>> logged(String id) {
        return target.queryForList("SELECT customer_id, amount, currency, event_version FROM order_log"
                + " WHERE message_id = ?", id);
    }

    private int logged() {
        return target.queryForObject("SELECT COUNT(*) FROM order_log", Integer.class);
    }

    private double upcasts(String consumer) {
        var c = meters.find("gateway.inbox.upcast").tag("consumer", consumer).tag("type", "OrderCreated")
                .tag("from", "1").counter();
        return c == null ? 0 : c.count();
    }

    private static void assertRow(List<Map<String, Object>> rows, String customer, String amount) {
        assertThat(rows).hasSize(1);
        Map<String, Object> row = rows.get(0);
        assertThat(row.get(key(row, "customer_id"))).isEqualTo(customer);
        assertThat((BigDecimal) row.get(key(row, "amount"))).isEqualByComparingTo(amount);
        assertThat(row.get(key(row, "currency"))).isEqualTo("EUR");
        assertThat(((Number) row.get(key(row, "event_version"))).intValue()).as("the current version").isEqualTo(2);
    }

    private static String key(Map<String, Object> row, String column) {
        return row.keySet().stream().filter(k -> k.equalsIgnoreCase(column)).findFirst().orElseThrow();
    }

    @Test
    void aV1EventIsAppliedOnceThroughTheEffectWrittenForV2() {
        String queue = unique("it.upcast");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, versioned(JQ_UPCAST));
        EventEnvelope v1 = orderCreated("alice", "12.50");
        send(queue, v1);

        await().until(() -> counter("gateway.inbox.applied", consumer) == 1);
        assertRow(logged(v1.id()), "alice", "12.50");
        assertThat(logged()).isEqualTo(1);
        assertThat(inboxRows(consumer)).isEqualTo(1);
        assertThat(upcasts(consumer)).isEqualTo(1.0);
        await().until(() -> count(queue) == 0);
        assertThat(deadLetters(queue)).isEmpty();
    }

    @Test
    void aV2EventIsAppliedDirectly() {
        String queue = unique("it.upcast");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, versioned(JQ_UPCAST));
        EventEnvelope v2 = orderCreatedV2("bob", "7.25");
        send(queue, v2);

        await().until(() -> counter("gateway.inbox.applied", consumer) == 1);
        assertRow(logged(v2.id()), "bob", "7.25");
        assertThat(inboxRows(consumer)).isEqualTo(1);
        assertThat(upcasts(consumer)).as("nothing to upcast").isZero();
        assertThat(deadLetters(queue)).isEmpty();
    }

    @Test
    void aVersionThatIsNotAcceptedIsDeadLettered() {
        String queue = unique("it.upcast");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, versioned(JQ_UPCAST));
        EventEnvelope v3 = withVersion(orderCreatedV2("alice", "1"), 3);
        EventEnvelope v2 = orderCreatedV2("alice", "2");
        send(queue, v3, v2);

        await().until(() -> deadLetters(queue).size() == 1 && counter("gateway.inbox.applied", consumer) == 1);
        Message dead = deadLetters(queue).get(0);
        assertThat(property(dead, "ce_id")).isEqualTo(v3.id());
        assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("UNKNOWN_TYPE");
        assertThat(property(dead, DeadLetterWriter.REASON)).contains("OrderCreated version 3 is not accepted");
        assertThat(logged(v3.id())).isEmpty();
        assertRow(logged(v2.id()), "alice", "2");
        assertThat(inboxRows(consumer)).isEqualTo(1);
    }

    @Test
    void anUpcastThatFailsDeadLettersOnlyItsMessageWithItsReasonAndTheRestOfTheBatchIsAppliedOnce() {
        String queue = unique("it.upcast");
        String consumer = unique("wallet");
        EventEnvelope alice1 = orderCreated("alice", "1.50");
        EventEnvelope carol = orderCreated("carol", "3");
        EventEnvelope alice2 = orderCreatedV2("alice", "2");
        EventEnvelope bob = orderCreated("bob", "4");
        EventEnvelope alice3 = orderCreated("alice", "5");
        // queued before the consumer starts: one batch with the default batchSize
        send(queue, alice1, carol, alice2, bob, alice3);
        startConsumer(consumer, queue, versioned(ROUTE));

        await().until(() -> deadLetters(queue).size() == 2 && counter("gateway.inbox.applied", consumer) == 3);
        await().until(() -> count(queue) == 0);
        Map<String, Message> dead = new LinkedHashMap<>();
        deadLetters(queue).forEach(m -> dead.put(property(m, "ce_id"), m));
        assertThat(dead).containsOnlyKeys(carol.id(), bob.id());
        for (Message m : dead.values()) {
            assertThat(property(m, DeadLetterWriter.REASON_CLASS)).isEqualTo("UPCAST_FAILED");
            assertThat(property(m, DeadLetterWriter.REASON)).contains("parameter 'upcast.OrderCreated.1'")
                    .contains("(version 1 to 2)");
            assertThat(property(m, DeadLetterWriter.CONSUMER)).isEqualTo(consumer);
        }
        assertThat(property(dead.get(carol.id()), DeadLetterWriter.REASON)).contains("no v2 shape for carol's order");
        assertThat(property(dead.get(bob.id()), DeadLetterWriter.REASON)).contains("not JSON");
        assertRow(logged(alice1.id()), "alice", "1.50");
        assertRow(logged(alice2.id()), "alice", "2");
        assertRow(logged(alice3.id()), "alice", "5");
        assertThat(logged()).isEqualTo(3);
        assertThat(inboxRows(consumer)).as("the dead letters left no inbox row").isEqualTo(3);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("none went back to the broker").isZero();
        assertThat(meters.find("gateway.inbox.dead.letters").tag("consumer", consumer).tag("reason", "UPCAST_FAILED")
                .counter().count()).isEqualTo(2.0);
    }

    @Test
    void aParkedV1EventIsUpcastWhenTheSequenceGateReleasesIt() {
        String queue = unique("it.upcast.gate");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("accept", "OrderCreated:1,OrderCreated:2,OrderPaid:1",
                "sequence", "data.seq",
                "upcast.OrderCreated.1", "jq:{seq: .seq, customer: {id: .customerId},"
                        + " total: {amount: .amount, currency: \"EUR\"}}",
                "effectSql.OrderCreated", V2_EFFECT));
        EventEnvelope second = event("OrderCreated", "order-7", "carol", "2", 2L);
        ObjectNode firstData = JsonNodeFactory.instance.objectNode().put("seq", 1);
        firstData.putObject("customer").put("id", "carol");
        firstData.putObject("total").put("amount", new BigDecimal("1")).put("currency", "EUR");
        EventEnvelope first = new EventEnvelope(EnvelopeVersion.V1, UUID.randomUUID().toString(), "urn:test",
                "OrderCreated", "order-7", Instant.now(), EventEnvelope.JSON, 2, "Order", null, null, null, firstData);
        send(queue, second);
        await().until(() -> target.queryForObject("SELECT COUNT(*) FROM inbox_parked", Integer.class) == 1);
        assertThat(logged()).isZero();

        send(queue, first);
        await().until(() -> logged() == 2);
        assertRow(logged(first.id()), "carol", "1");
        assertRow(logged(second.id()), "carol", "2");
        assertThat(inboxRows(consumer)).isEqualTo(2);
        assertThat(deadLetters(queue)).isEmpty();
    }
}
