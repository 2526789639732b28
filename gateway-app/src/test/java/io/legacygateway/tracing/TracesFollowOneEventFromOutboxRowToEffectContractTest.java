package io.legacygateway.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.inbox.InboxConsumerTemplate;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.testsupport.OtlpTraceReceiver;
import io.legacygateway.testsupport.OtlpTraceReceiver.ReceivedSpan;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.QueueProbe;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * With {@code management.otlp.tracing.endpoint} set (and nothing else): one event's spans, exported over OTLP/HTTP to a
 * real receiver in the test ({@link OtlpTraceReceiver}), form one trace from the outbox row to the consumer's effect.
 * The relay publishes to the embedded broker; an {@code inbox-consumer} route on the same database applies the event.
 * Written once; each real database runs it through a small subclass.
 */
// Boot's tests turn span export off unless asked: this one asks, as a deployment is by default
@AutoConfigureObservability(metrics = false)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class TracesFollowOneEventFromOutboxRowToEffectContractTest {

    // one receiver for the JVM, never closed: the PostgreSQL and MariaDB subclasses share this static field (closed
    // after one class, the other's exporter found nobody listening); each test finds its own spans by event id
    private static final OtlpTraceReceiver receiver = start();

    @DynamicPropertySource
    static void exportToTheReceiver(DynamicPropertyRegistry registry) {
        // the one property a deployment sets; the batch exporter keeps its default schedule (every 5 s)
        registry.add("management.otlp.tracing.endpoint", receiver::endpoint);
    }

    @Autowired
    OutboxRelayFactory relays;
    @Autowired
    GatewayDataSources dataSources;
    @Autowired
    CamelContext camel;
    @Autowired
    GatewayTracing tracing;
    @Autowired
    ConnectionFactory connectionFactory;

    private OutboxRows rows;
    private JdbcTemplate jdbc;
    private String route;

    private static OtlpTraceReceiver start() {
        try {
            return new OtlpTraceReceiver();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ConditionFactory await() {
        return Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100));
    }

    @BeforeEach
    void outboxAndEffectTable() {
        rows = new OutboxRows(dataSources.get("legacy", "test"));
        rows.clear();
        jdbc = rows.jdbc();
        jdbc.execute("CREATE TABLE IF NOT EXISTS traced_effect (message_id VARCHAR(255) NOT NULL)");
        jdbc.update("DELETE FROM traced_effect");
    }

    @AfterEach
    void stopConsumer() throws Exception {
        if (route != null) {
            camel.getRouteController().stopRoute(route);
            camel.removeRoute(route);
        }
    }

    @Test
    void theLegacyApplicationsTraceContinuesThroughPublishToTheEffect() {
        assertThat(tracing.on()).as("the endpoint alone turns traces on").isTrue();
        String traceId = hex(32);
        String rowSpanId = hex(16);
        String queue = unique("it.traced");
        startConsumer(queue);
        String event = rows.insert("order-1", "OrderCreated", "{\"orderId\":\"order-1\"}");
        jdbc.update("UPDATE outbox SET trace_id = ? WHERE id = ?", "00-" + traceId + "-" + rowSpanId + "-01", event);

        assertThat(relay(queue).drain(() -> false)).isEqualTo(1);
        await().until(() -> effects(event) == 1);

        ReceivedSpan publish = awaitSpan("publish", event);
        ReceivedSpan apply = awaitSpan("inbox apply", event);
        ReceivedSpan cycle = awaitCycleLinkedFrom(publish);
        assertThat(publish.traceId()).as("the row's trace").isEqualTo(traceId);
        assertThat(publish.parentSpanId()).as("the publish span is a child of the row's span").isEqualTo(rowSpanId);
        assertThat(publish.links()).as("and links to the cycle that sent it")
                .containsExactly(cycle.traceId() + "-" + cycle.spanId());
        assertThat(cycle.parentSpanId()).as("a cycle is a root of its own").isEmpty();
        assertThat(cycle.attribute("gateway.relay")).isEqualTo(publish.attribute("gateway.relay"));
        assertThat(apply.traceId()).as("the row's trace reaches the consumer").isEqualTo(traceId);
        assertThat(apply.parentSpanId()).as("the apply span is a child of the publish span")
                .isEqualTo(publish.spanId());
        assertThat(apply.error()).isFalse();
        assertThat(apply.attribute("gateway.inbox.outcome")).isEqualTo("APPLIED");
    }

    @Test
    void anEventWithoutATraceparentIsTracedFromItsRelayCycle() throws Exception {
        String queue = unique("it.untraced");
        String event = rows.insert("order-2", "OrderCreated", "{\"orderId\":\"order-2\"}");
        assertThat(relay(queue).drain(() -> false)).isEqualTo(1);
        Message sent = browseOne(queue);
        assertThat(sent.getStringProperty(EnvelopeMessages.TRACEPARENT)).as("the publish span's context travels")
                .matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
        assertThat(((TextMessage) sent).getText()).as("the envelope gets no traceparent of its own")
                .doesNotContain("traceparent");
        startConsumer(queue);
        await().until(() -> effects(event) == 1);

        ReceivedSpan publish = awaitSpan("publish", event);
        ReceivedSpan apply = awaitSpan("inbox apply", event);
        ReceivedSpan cycle = awaitSpanWithId(publish.parentSpanId());
        assertThat(cycle.name()).as("the publish span is a child of the cycle span").isEqualTo("relay cycle");
        assertThat(publish.traceId()).isEqualTo(cycle.traceId());
        assertThat(publish.links()).isEmpty();
        assertThat(sent.getStringProperty(EnvelopeMessages.TRACEPARENT))
                .isEqualTo("00-" + publish.traceId() + "-" + publish.spanId() + "-01");
        assertThat(apply.traceId()).isEqualTo(cycle.traceId());
        assertThat(apply.parentSpanId()).as("the apply span is a child of the publish span")
                .isEqualTo(publish.spanId());
    }

    private OutboxRelay relay(String queue) {
        Map<String, Object> p = new HashMap<>();
        p.put("relay", unique("traced"));
        p.put("dataSource", "legacy");
        p.put("table", "outbox");
        p.put("destination", "queue:" + queue);
        p.put("payloadFormat", "JSON");
        p.put("pendingStatus", "PENDING");
        p.put("publishedStatus", "PUBLISHED");
        p.put("failedStatus", "FAILED");
        return relays.create(p);
    }

    private void startConsumer(String queue) {
        String consumer = unique("traced");
        route = InboxConsumerTemplate.ROUTE_PREFIX + consumer;
        TemplatedRouteBuilder b = TemplatedRouteBuilder.builder(camel, InboxConsumerTemplate.TEMPLATE).routeId(route);
        b.parameter("consumer", consumer);
        b.parameter("dataSource", "legacy");
        b.parameter("queue", queue);
        b.parameter("accept", "OrderCreated:1");
        b.parameter("effectSql.OrderCreated", "INSERT INTO traced_effect (message_id) VALUES (:id)");
        b.add();
    }

    private Message browseOne(String queue) {
        List<Message> found = new QueueProbe(nativeFactory(connectionFactory)).browse(queue);
        assertThat(found).hasSize(1);
        return found.get(0);
    }

    private int effects(String event) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM traced_effect WHERE message_id = ?", Integer.class, event);
    }

    private static ReceivedSpan awaitSpan(String name, String event) {
        return await().until(() -> receiver.spans().stream()
                .filter(s -> s.name().equals(name) && event.equals(s.attribute("messaging.message.id")))
                .findFirst().orElse(null), s -> s != null);
    }

    private static ReceivedSpan awaitSpanWithId(String spanId) {
        return await().until(() -> receiver.spans().stream().filter(s -> s.spanId().equals(spanId)).findFirst()
                .orElse(null), s -> s != null);
    }

    private static ReceivedSpan awaitCycleLinkedFrom(ReceivedSpan publish) {
        assertThat(publish.links()).hasSize(1);
        return awaitSpanWithId(publish.links().get(0).substring(33));
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String hex(int digits) {
        return UUID.randomUUID().toString().replace("-", "").repeat(2).substring(0, digits);
    }

    /** Artemis's own factory under Spring's caching wrapper: the probe needs Artemis's sessions. */
    private static ConnectionFactory nativeFactory(ConnectionFactory cf) {
        while (cf instanceof org.springframework.jms.connection.SingleConnectionFactory s
                && s.getTargetConnectionFactory() != null) {
            cf = s.getTargetConnectionFactory();
        }
        return cf;
    }
}
