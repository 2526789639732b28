package io.legacygateway.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EnvelopeVersion;
import io.legacygateway.envelope.EventEnvelope;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Shows the inbox at work ({@code demo.duplicate-deliveries}): now and then it takes an order event that the
 * wallet has applied already, rebuilds it from its outbox row exactly as the relay published it, and delivers it to
 * {@value #QUEUE} once more. Its {@code _AMQ_DUPL_ID} is changed, so the broker's duplicate detection lets it through,
 * as it would after a relay crash with the id evicted from the broker's cache. The wallet's inbox skips it: the log
 * says so, {@code gateway_inbox_duplicates_total} counts it, and the wallet does not change.
 */
public class DemoDuplicateDeliveries implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(DemoDuplicateDeliveries.class);
    /** The demo's event queue (routes/demo). */
    public static final String QUEUE = "demo.orders.events";

    private final JdbcTemplate legacy;
    private final DemoWallet wallet;
    private final ConnectionFactory connectionFactory;
    private final GatewayProperties properties;
    private final DemoProperties settings;
    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final AtomicLong sent = new AtomicLong();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "demo-duplicates");
        t.setDaemon(true);
        return t;
    });

    public DemoDuplicateDeliveries(GatewayDataSources dataSources, GatewayProperties properties,
                                   DemoProperties settings, DemoWallet wallet, ConnectionFactory connectionFactory) {
        this.legacy = new JdbcTemplate(dataSources.get(settings.dataSource(), "demo.data-source"));
        this.wallet = wallet;
        this.connectionFactory = connectionFactory;
        this.properties = properties;
        this.settings = settings;
    }

    @Override
    public void afterPropertiesSet() {
        long period = settings.duplicateInterval().toMillis();
        executor.scheduleWithFixedDelay(this::deliverAgain, period, period, TimeUnit.MILLISECONDS);
        log.info("Demo: every {} ms an order event the wallet applied already is delivered to {} again", period, QUEUE);
    }

    /** Delivers one already-applied event again; returns its id, or {@code null} when none is applied yet. */
    public String deliverAgain() {
        try {
            List<String> applied = new JdbcTemplate(wallet.dataSource()).queryForList("SELECT message_id FROM inbox "
                    + "WHERE consumer_name = ? ORDER BY processed_at DESC LIMIT 5", String.class, DemoWallet.CONSUMER);
            if (applied.isEmpty()) {
                return null;
            }
            EventEnvelope event = event(applied.get(ThreadLocalRandom.current().nextInt(applied.size())));
            // version 1 of OrderCreated (and OrderPaid) name customerId; version 2 of OrderCreated customer.id
            String customer = event.data().has("customerId") ? event.data().path("customerId").asText()
                    : event.data().path("customer").path("id").asText();
            Map<String, Object> before = wallet.wallet(customer);
            log.info("Demo: delivering {} {} (order {}) a second time; {}'s wallet before it: {} ordered ({}), {} paid "
                            + "({}). The wallet's inbox must skip it", event.type(), event.id(), event.subject(),
                    customer,
                    before.get("ORDERS_CREATED"), before.get("AMOUNT_ORDERED"), before.get("ORDERS_PAID"),
                    before.get("AMOUNT_PAID"));
            send(event);
            return event.id();
        } catch (RuntimeException | JMSException | JsonProcessingException e) {
            log.warn("Demo: duplicate delivery failed: {}", e.toString());
            return null;
        }
    }

    private EventEnvelope event(String id) throws JsonProcessingException {
        EventEnvelope[] event = new EventEnvelope[1];
        JsonProcessingException[] bad = new JsonProcessingException[1];
        legacy.query("SELECT aggregate_type, aggregate_id, event_type, event_version, payload, occurred_at, "
                + "correlation_id FROM outbox WHERE id = ?", rs -> {
                    Timestamp occurred = rs.getTimestamp("occurred_at");
                    try {
                        event[0] = new EventEnvelope(EnvelopeVersion.V1, id, properties.source(),
                                rs.getString("event_type"), rs.getString("aggregate_id"),
                                occurred == null ? null : occurred.toInstant(),
                                EventEnvelope.JSON, rs.getInt("event_version"), rs.getString("aggregate_type"),
                                rs.getString("correlation_id"), null, null, codec.parseJson(rs.getString("payload")));
                    } catch (JsonProcessingException e) {
                        bad[0] = e;
                    }
                }, id);
        if (bad[0] != null) {
            throw bad[0];
        }
        if (event[0] == null) {
            throw new IllegalStateException("no outbox row " + id);
        }
        return event[0];
    }

    private void send(EventEnvelope e) throws JMSException {
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageProducer p = s.createProducer(s.createQueue(QUEUE))) {
            TextMessage m = EnvelopeMessages.toMessage(s, e, codec.write(e),
                    e.id() + "#demo-duplicate-" + sent.incrementAndGet(), null);
            p.send(m, DeliveryMode.PERSISTENT, Message.DEFAULT_PRIORITY, 0L);
        }
    }

    @Override
    public void destroy() {
        executor.shutdownNow();
    }
}
