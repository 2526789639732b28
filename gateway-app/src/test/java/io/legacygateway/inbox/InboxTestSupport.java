package io.legacygateway.inbox;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.TemplateParameters;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeVersion;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.InboxFaults;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;

/**
 * What inbox tests share: the consumer's database {@code target} (inbox tables created by the gateway, plus the
 * tests' own effect tables), consumer routes instantiated from the {@code inbox-consumer} template as YAML would,
 * envelopes published like the relay publishes them, the dead-letter queue read as an operator would, and
 * {@link InboxFaults} to open the failure windows.
 *
 * <p>The default effect: {@code OrderCreated} appends one row to {@code effect_log} (so a second effect would be a
 * second row) and adds the amount to the customer's {@code wallet} row; {@code OrderPaid} adds to {@code paid}.
 */
@Import(InboxTestSupport.Faults.class)
// each test class has a context of its own (its own schema, maybe the standalone broker): close it after the class, so
// its pools and JMS consumers do not linger while later classes run
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class InboxTestSupport {

    @TestConfiguration
    static class Faults {
        @Bean
        InboxFaults inboxFaults() {
            return new InboxFaults();
        }
    }

    static final String CREATED_EFFECT = "INSERT INTO effect_log (message_id, customer_id, amount) "
            + "VALUES (:id, :data.customerId, :data.amount)";
    static final String PAID_EFFECT = "UPDATE wallet SET paid = paid + :data.amount WHERE customer_id = :data.customerId";

    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final List<String> routes = new ArrayList<>();

    @Autowired
    protected InboxFaults faults;
    @Autowired
    protected CamelContext camel;
    @Autowired
    protected GatewayDataSources dataSources;
    @Autowired
    protected ConnectionFactory connectionFactory;
    @Autowired
    protected MeterRegistry meters;
    @Autowired
    protected InboxConsumerFactory factory;

    protected JdbcTemplate target;

    @BeforeEach
    void effectTables() {
        target = new JdbcTemplate(testDataSource());
        for (String ddl : List.of(
                "CREATE TABLE IF NOT EXISTS effect_log (message_id VARCHAR(255) NOT NULL, customer_id VARCHAR(64), "
                        + "amount DECIMAL(12,2))",
                "CREATE TABLE IF NOT EXISTS wallet (customer_id VARCHAR(64) PRIMARY KEY, total DECIMAL(12,2) NOT NULL,"
                        + " paid DECIMAL(12,2) NOT NULL, history VARCHAR(1000) DEFAULT '' NOT NULL)")) {
            target.execute(ddl);
        }
        target.update("DELETE FROM effect_log");
        target.update("DELETE FROM wallet");
        target.update("DELETE FROM inbox");
        target.update("DELETE FROM inbox_parked");
        target.update("DELETE FROM inbox_sequence");
        for (String c : List.of("alice", "bob", "carol")) {
            target.update("INSERT INTO wallet (customer_id, total, paid, history) VALUES (?, 0, 0, '')", c);
        }
    }

    @AfterEach
    void removeConsumers() throws Exception {
        for (String id : routes) {
            camel.getRouteController().stopRoute(id);
            camel.removeRoute(id);
        }
        routes.clear();
    }

    /** Where the test reads and prepares the consumer's database: the gateway's pool unless overridden. */
    protected javax.sql.DataSource testDataSource() {
        return dataSources.get("target", "test");
    }

    /** Where the test publishes and reads the queues: the application's broker unless overridden. */
    protected ConnectionFactory brokerConnectionFactory() {
        ConnectionFactory cf = connectionFactory;
        // Spring's caching wrapper hands out session proxies; the tests need Artemis's own sessions
        while (cf instanceof org.springframework.jms.connection.SingleConnectionFactory s
                && s.getTargetConnectionFactory() != null) {
            cf = s.getTargetConnectionFactory();
        }
        return cf;
    }

    /**
     * The {@code batchSize} of the test's consumers; {@code null} for the template's default. The failure-window
     * tests run with the default (a batch of up to 100) and again, in their {@code ...BatchOfOneTest} subclasses,
     * with one message per transaction.
     */
    protected String batchSize() {
        return null;
    }

    /** The most messages one session of the test's consumers holds at once. */
    protected int perSession() {
        String size = batchSize();
        return Integer.parseInt(size == null
                ? TemplateParameters.definition(InboxParameters.class, "batchSize").defaultValue() : size);
    }

    /** The default parameters of a test consumer; {@code extra} overrides or adds. */
    protected Map<String, String> parameters(String consumer, String queue, Map<String, String> extra) {
        Map<String, String> p = new HashMap<>();
        p.put("consumer", consumer);
        p.put("dataSource", "target");
        p.put("queue", queue);
        p.put("accept", "OrderCreated:1,OrderPaid:1");
        p.put("effectSql.OrderCreated", CREATED_EFFECT);
        p.put("effectSql.OrderPaid", PAID_EFFECT);
        p.put("batchSize", batchSize());
        p.putAll(extra);
        p.values().removeIf(v -> v == null);
        return p;
    }

    /** Starts an {@code inbox-consumer} route as a YAML {@code templatedRoute} with these parameters would. */
    protected String startConsumer(String consumer, String queue, Map<String, String> extra) {
        String routeId = InboxConsumerTemplate.ROUTE_PREFIX + consumer;
        TemplatedRouteBuilder builder = TemplatedRouteBuilder.builder(camel, InboxConsumerTemplate.TEMPLATE)
                .routeId(routeId);
        parameters(consumer, queue, extra).forEach(builder::parameter);
        builder.add();
        routes.add(routeId);
        return routeId;
    }

    protected InboxConsumer consumer(String name) {
        return factory.consumers().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    protected static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    protected static EventEnvelope orderCreated(String customer, String amount) {
        return event("OrderCreated", "order-" + UUID.randomUUID().toString().substring(0, 8), customer, amount, null);
    }

    /** An envelope as the relay writes it; {@code seq} (may be null) goes into the data. */
    protected static EventEnvelope event(String type, String order, String customer, String amount, Long seq) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("orderId", order);
        data.put("customerId", customer);
        data.put("amount", new BigDecimal(amount));
        if (seq != null) {
            data.put("seq", seq);
        }
        return new EventEnvelope(EnvelopeVersion.V1, UUID.randomUUID().toString(), "urn:test", type, order,
                Instant.now(), EventEnvelope.JSON, 1, "Order", null, null, null, data);
    }

    /** Publishes envelopes as the relay does (persistent text, CloudEvents properties, group = aggregate). */
    protected void send(String queue, EventEnvelope... envelopes) {
        List<String> bodies = new ArrayList<>();
        for (EventEnvelope e : envelopes) {
            bodies.add(codec.write(e));
        }
        sendRaw(queue, bodies, envelopes);
    }

    /**
     * Publishes bodies as they are; {@code envelopes[i]} (when present) supplies the properties of body i, with no
     * duplicate id: tests of duplicate deliveries send one envelope twice.
     */
    protected void sendRaw(String queue, List<String> bodies, EventEnvelope... envelopes) {
        new QueueProbe(brokerConnectionFactory()).send(queue, bodies, false, envelopes);
    }

    /** Messages on a queue (browsed); 0 when the queue does not exist (a dead-letter queue nobody needed yet). */
    protected int count(String queue) {
        return browse(queue).size();
    }

    protected String deadLetterQueue(String queue) {
        return "DLA::DLQ." + queue;
    }

    protected List<Message> deadLetters(String queue) {
        return browse(deadLetterQueue(queue));
    }

    protected List<Message> browse(String queue) {
        return new QueueProbe(brokerConnectionFactory()).browse(queue);
    }

    protected int effects(String eventId) {
        return target.queryForObject("SELECT COUNT(*) FROM effect_log WHERE message_id = ?", Integer.class, eventId);
    }

    protected int effects() {
        return target.queryForObject("SELECT COUNT(*) FROM effect_log", Integer.class);
    }

    /**
     * A count read on a connection of its own, never the one of a transaction open on this thread (a JdbcTemplate
     * on the gateway's pool would join it and see its uncommitted rows).
     */
    protected int countOnOwnConnection(String sql, Object arg) {
        try (java.sql.Connection c = testDataSource().getConnection();
             java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, arg);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    protected int inboxRows(String consumer) {
        return target.queryForObject("SELECT COUNT(*) FROM inbox WHERE consumer_name = ?", Integer.class, consumer);
    }

    protected double counter(String name, String consumer) {
        var c = meters.find(name).tag("consumer", consumer).counter();
        return c == null ? 0 : c.count();
    }

    protected static String property(Message m, String name) {
        return QueueProbe.property(m, name);
    }
}
