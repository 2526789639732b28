package io.legacygateway.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeVersion;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.inbox.InboxConsumerTemplate;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.InboxFaults;
import io.legacygateway.testsupport.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;

/**
 * What dead-letter tests share: a real inbox consumer (the {@code inbox-consumer} template, as YAML instantiates it)
 * on the consumer's database {@code target} that dead-letters poison messages; envelopes published as the relay
 * publishes them; queues read as an operator would; a pinned clock that only the test (and the pacing's
 * {@link RecordingSleeper}) moves; and the failure hooks of the inbox ({@link InboxFaults}) and of the redelivery
 * ({@link RedeliveryFaults}).
 *
 * <p>The consumer's effect: {@code OrderCreated} adds the amount to the customer's {@code wallet} row and must change
 * a row ({@code requireRows}), so an order of a customer without a wallet is dead-lettered as {@code BUSINESS_RULE};
 * opening the wallet is the "fix" after which a redelivery applies it.
 */
@Import(DeadLetterTestSupport.Beans.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class DeadLetterTestSupport {

    @TestConfiguration
    static class Beans {
        @Bean
        @Primary
        MutableClock pinnedClock() {
            return MutableClock.atNow();
        }

        @Bean
        RecordingSleeper recordingSleeper(MutableClock clock) {
            return new RecordingSleeper(clock);
        }

        @Bean
        InboxFaults inboxFaults() {
            return new InboxFaults();
        }

        @Bean
        RedeliveryFaults redeliveryFaults() {
            return new RedeliveryFaults();
        }
    }

    static final String WALLET_EFFECT = "UPDATE wallet SET total = total + :data.amount WHERE customer_id = "
            + ":data.customerId";

    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final List<String> routes = new ArrayList<>();

    @Autowired
    protected MutableClock clock;
    @Autowired
    protected RecordingSleeper sleeper;
    @Autowired
    protected InboxFaults inboxFaults;
    @Autowired
    protected RedeliveryFaults redeliveryFaults;
    @Autowired
    protected CamelContext camel;
    @Autowired
    protected GatewayDataSources dataSources;
    @Autowired
    protected MeterRegistry meters;
    @Autowired
    protected DeadLetterRedelivery redelivery;

    protected JdbcTemplate target;

    @BeforeEach
    void walletTable() {
        target = new JdbcTemplate(dataSources.get("target", "test"));
        target.execute("CREATE TABLE IF NOT EXISTS wallet (customer_id VARCHAR(64) PRIMARY KEY, "
                + "total DECIMAL(12,2) NOT NULL)");
        target.update("DELETE FROM wallet");
        target.update("INSERT INTO wallet (customer_id, total) VALUES ('alice', 0)");
        sleeper.reset();
    }

    @AfterEach
    void removeConsumers() throws Exception {
        for (String id : routes) {
            camel.getRouteController().stopRoute(id);
            camel.removeRoute(id);
        }
        routes.clear();
    }

    /** Where the test publishes and reads queues (the broker's administrator on the standalone broker). */
    protected abstract ConnectionFactory brokerConnectionFactory();

    /** Starts an inbox consumer on {@code queue} with the wallet effect; {@code extra} overrides parameters. */
    protected String startConsumer(String consumer, String queue, Map<String, String> extra) {
        String routeId = InboxConsumerTemplate.ROUTE_PREFIX + consumer;
        Map<String, String> p = new HashMap<>();
        p.put("consumer", consumer);
        p.put("dataSource", "target");
        p.put("queue", queue);
        p.put("accept", "OrderCreated:1");
        p.put("effectSql.OrderCreated", WALLET_EFFECT);
        p.put("requireRows", "true");
        p.putAll(extra);
        TemplatedRouteBuilder builder = TemplatedRouteBuilder.builder(camel, InboxConsumerTemplate.TEMPLATE)
                .routeId(routeId);
        p.forEach(builder::parameter);
        builder.add();
        routes.add(routeId);
        return routeId;
    }

    protected void stopRoute(String routeId) throws Exception {
        camel.getRouteController().stopRoute(routeId);
    }

    protected void startRoute(String routeId) throws Exception {
        camel.getRouteController().startRoute(routeId);
    }

    protected void openWallet(String customer) {
        target.update("INSERT INTO wallet (customer_id, total) VALUES (?, 0)", customer);
    }

    protected BigDecimal total(String customer) {
        return target.queryForObject("SELECT total FROM wallet WHERE customer_id = ?", BigDecimal.class, customer);
    }

    protected int inboxRows(String eventId) {
        return target.queryForObject("SELECT COUNT(*) FROM inbox WHERE message_id = ?", Integer.class, eventId);
    }

    protected static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    protected static EventEnvelope order(String type, String customer, String amount) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        String order = "order-" + UUID.randomUUID().toString().substring(0, 8);
        data.put("orderId", order);
        data.put("customerId", customer);
        data.put("amount", new BigDecimal(amount));
        return new EventEnvelope(EnvelopeVersion.V1, "evt-" + UUID.randomUUID(), "urn:test", type, order,
                java.time.Instant.now(), EventEnvelope.JSON, 1, "Order", "corr-" + order, null, null, data);
    }

    /** Publishes envelopes as the relay does: persistent text, CloudEvents properties, group, duplicate id. */
    protected void send(String queue, EventEnvelope... envelopes) {
        List<String> bodies = new ArrayList<>();
        for (EventEnvelope e : envelopes) {
            bodies.add(codec.write(e));
        }
        sendRaw(queue, bodies, envelopes);
    }

    protected String body(EventEnvelope e) {
        return codec.write(e);
    }

    protected void sendRaw(String queue, List<String> bodies, EventEnvelope... envelopes) {
        new QueueProbe(brokerConnectionFactory()).send(queue, bodies, true, envelopes);
    }

    protected String deadLetterQueue(String queue) {
        return "DLQ." + queue;
    }

    /** The dead letters of a queue, browsed. */
    protected List<Message> deadLetters(String queue) {
        return browse("DLA::" + deadLetterQueue(queue));
    }

    protected List<Message> browse(String queue) {
        return new QueueProbe(brokerConnectionFactory()).browse(queue);
    }

    protected void awaitDeadLetters(String queue, int count) {
        Awaitility.await("dead letters of " + queue).atMost(Duration.ofSeconds(60))
                .until(() -> deadLetters(queue).size() == count);
    }

    protected static String property(Message m, String name) {
        try {
            Object v = m.getObjectProperty(name);
            return v == null ? null : v.toString();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    protected static String text(Message m) {
        try {
            return ((TextMessage) m).getText();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    protected double counter(String name, String tag, String value) {
        var c = meters.find(name).tag(tag, value).counter();
        return c == null ? 0 : c.count();
    }

    /** Audit rows of an operation, newest last: (actor, target, selection, dry_run, affected, detail). */
    protected List<Map<String, Object>> audit(String operation) {
        return target.queryForList("SELECT actor, target, selection, dry_run, affected, detail FROM "
                + "gateway_operation_audit WHERE operation = ? ORDER BY id", operation);
    }

    protected static Map<String, Object> last(List<Map<String, Object>> rows) {
        assertThat(rows).isNotEmpty();
        return lowerKeys(rows.get(rows.size() - 1));
    }

    private static Map<String, Object> lowerKeys(Map<String, Object> row) {
        Map<String, Object> out = new HashMap<>();
        row.forEach((k, v) -> out.put(k.toLowerCase(java.util.Locale.ROOT), v));
        return out;
    }

    protected static RedeliveryRequest request(DeadLetterFilter filter, boolean dryRun, Integer rate,
                                               InboxPolicy policy, boolean force) {
        return new RedeliveryRequest(filter, dryRun, rate, policy, force, false);
    }

    protected static DeadLetterFilter filter(String text) {
        return DeadLetterFilter.parse(text);
    }
}
