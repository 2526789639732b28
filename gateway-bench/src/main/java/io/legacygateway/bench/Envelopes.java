package io.legacygateway.bench;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EnvelopeVersion;
import io.legacygateway.envelope.EventEnvelope;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Instant;
import java.util.UUID;

/**
 * The message every path of the bench sends or receives: the gateway's CloudEvents envelope (version 1) of an outbox
 * row of the bench's shape (~1 KiB), with the JMS properties the gateway's publisher sets. The hand-written programs
 * build the JSON text by concatenation: the rows are the bench's own, so nothing needs escaping.
 */
final class Envelopes {

    static final String SOURCE = "urn:legacy-gateway";

    private Envelopes() {
    }

    static String payload(long i) {
        return "{\"orderId\":\"order-" + (i % BenchDatabase.AGGREGATES) + "\",\"customerId\":\"customer-" + (i % 97)
                + "\",\"amount\":" + (i % 500) + ".25,\"currency\":\"EUR\",\"note\":\""
                + "x".repeat(BenchDatabase.NOTE_CHARS) + "\",\"lines\":[{\"sku\":\"SKU-" + (i % 50)
                + "\",\"quantity\":" + (1 + i % 5) + "}]}";
    }

    static String json(String id, String type, String subject, Instant time, int version, String aggregateType,
                       String data) {
        return "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"source\":\"" + SOURCE + "\",\"type\":\"" + type
                + "\",\"subject\":\"" + subject + "\",\"time\":\"" + time + "\",\"datacontenttype\":\"application/json\""
                + ",\"eventversion\":" + version + ",\"aggregatetype\":\"" + aggregateType + "\",\"data\":" + data + "}";
    }

    /** The text message with the gateway publisher's properties ({@link EnvelopeMessages}, as the relay sets them). */
    static TextMessage message(Session s, String id, String type, String subject, Instant time, int version,
                               String aggregateType, String data, String relay) throws JMSException {
        // the properties come from the envelope's attributes only: its data stays the hand-written text
        EventEnvelope headers = new EventEnvelope(EnvelopeVersion.V1, id, SOURCE, type, subject, time,
                EventEnvelope.JSON, version, aggregateType, null, null, null, null);
        return EnvelopeMessages.toMessage(s, headers, json(id, type, subject, time, version, aggregateType, data), id,
                relay);
    }

    /**
     * Puts {@code messages} inbound events on a queue for the inbox paths: type {@code AccountCredited} version 1,
     * subject = account ({@code order-<n>}, the rows of {@code bench_account}), {@code data.amount} the credit.
     */
    static void fillQueue(ConnectionFactory cf, String queue, int messages) throws JMSException {
        try (Connection c = cf.createConnection(); Session s = c.createSession(true, Session.SESSION_TRANSACTED)) {
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            Instant now = Instant.now();
            for (int i = 0; i < messages; i++) {
                String account = "order-" + (i % BenchDatabase.AGGREGATES);
                p.send(message(s, UUID.randomUUID().toString(), "AccountCredited", account, now, 1, "Account",
                        payload(i), "bench"));
                if ((i + 1) % 500 == 0) {
                    s.commit();
                }
            }
            s.commit();
        }
    }
}
