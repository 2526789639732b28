package io.legacygateway.demo;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.math.BigDecimal;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Gives the demo dead letters to look at and redeliver ({@code demo.poison-messages}): every
 * {@code poison-interval} it sends an {@code OrderCreated} for a new customer {@code late-…} who has no wallet yet to
 * {@value DemoDuplicateDeliveries#QUEUE}, as the relay would publish it. The wallet's inbox finds no wallet row
 * ({@code requireRows}) and dead-letters it as {@code BUSINESS_RULE} to {@code DLQ.demo.orders.events}. Half an
 * interval later the wallet service opens that customer's wallet (the "fix"): from then on, redelivering the dead
 * letter applies it once. The log says what to run.
 */
public class DemoPoisonMessages implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(DemoPoisonMessages.class);

    private final DemoWallet wallet;
    private final ConnectionFactory connectionFactory;
    private final GatewayProperties properties;
    private final DemoProperties settings;
    private final Clock clock;
    private final String baseUrl;
    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "demo-poison");
        t.setDaemon(true);
        return t;
    });

    public DemoPoisonMessages(DemoWallet wallet, ConnectionFactory connectionFactory, GatewayProperties properties,
                              DemoProperties settings, Clock clock, String baseUrl) {
        this.wallet = wallet;
        this.connectionFactory = connectionFactory;
        this.properties = properties;
        this.settings = settings;
        this.clock = clock;
        this.baseUrl = baseUrl;
    }

    @Override
    public void afterPropertiesSet() {
        long period = settings.poisonInterval().toMillis();
        executor.scheduleWithFixedDelay(this::sendPoison, period / 4, period, TimeUnit.MILLISECONDS);
        log.info("Demo: every {} s an order event for a customer without a wallet goes to {}: the wallet's inbox "
                + "dead-letters it; the wallet opens {} s later, and the dead letter can be redelivered",
                period / 1000, DemoDuplicateDeliveries.QUEUE, period / 2000);
    }

    /** Sends one poison message now; returns its event id, or {@code null} when sending failed. */
    public String sendPoison() {
        String customer = "late-" + UUID.randomUUID().toString().substring(0, 8);
        String order = "LATE-" + UUID.randomUUID().toString().substring(0, 8);
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("orderId", order);
        data.put("customerId", customer);
        data.put("amount", BigDecimal.valueOf(ThreadLocalRandom.current().nextInt(500, 20000), 2));
        EventEnvelope event = new EventEnvelope(EnvelopeVersion.V1, "evt-late-" + UUID.randomUUID(),
                properties.source(), "OrderCreated", order, clock.instant(), EventEnvelope.JSON, 1, "Order", null,
                null, null, data);
        try {
            send(event);
        } catch (JMSException | RuntimeException e) {
            log.warn("Demo: poison message not sent: {}", e.toString());
            return null;
        }
        long openIn = settings.poisonInterval().toMillis() / 2;
        executor.schedule(() -> openWallet(customer, event.id()), openIn, TimeUnit.MILLISECONDS);
        log.info("""
                Demo: sent {} {} for customer {}, who has no wallet yet: the wallet's inbox dead-letters it \
                (BUSINESS_RULE) to DLQ.{}. The wallet opens in {} s. See it:
                  curl -u demo:demo {}/api/dead-letters
                  curl -u demo:demo '{}/api/dead-letters/messages?subject={}'""", event.type(), event.id(), customer,
                DemoDuplicateDeliveries.QUEUE, openIn / 1000, baseUrl, baseUrl, order);
        return event.id();
    }

    private void openWallet(String customer, String eventId) {
        try {
            new JdbcTemplate(wallet.dataSource()).update("INSERT INTO customer_wallet (customer_id) VALUES (?)",
                    customer);
            log.info("""
                    Demo: the wallet of {} is open now; redeliver its dead letter (dry run first, then for real):
                      curl -u demo:demo -H 'Content-Type: application/json' -d '{"ids":["{}"],"dryRun":true}' \
                    {}/api/dead-letters/redeliver
                      curl -u demo:demo -H 'Content-Type: application/json' -d '{"ids":["{}"],"dryRun":false}' \
                    {}/api/dead-letters/redeliver""", customer, eventId, baseUrl, eventId, baseUrl);
        } catch (RuntimeException e) {
            log.warn("Demo: cannot open the wallet of {}: {}", customer, e.toString());
        }
    }

    private void send(EventEnvelope e) throws JMSException {
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageProducer p = s.createProducer(s.createQueue(DemoDuplicateDeliveries.QUEUE))) {
            TextMessage m = EnvelopeMessages.toMessage(s, e, codec.write(e), e.id(), null);
            p.send(m, DeliveryMode.PERSISTENT, Message.DEFAULT_PRIORITY, 0L);
        }
    }

    @Override
    public void destroy() {
        executor.shutdownNow();
    }
}
