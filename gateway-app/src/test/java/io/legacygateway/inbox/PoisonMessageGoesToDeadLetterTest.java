package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.StandaloneArtemis;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * Messages that must not be applied reach the broker's dead-letter queue {@code DLQ.<queue>} (on {@code DLA}, as
 * broker.xml auto-creates it), with the reason, never acknowledged silently:
 * <ul>
 *   <li>non-retryable (malformed JSON, missing CloudEvents attributes, unknown envelope version, unknown type, too
 *       large, not UTF-8, an ObjectMessage): on the first delivery, in the transaction that acknowledges it;</li>
 *   <li>transient (a lock the effect waits for until its lock timeout, on every attempt): retried by the broker with
 *       its redelivery delay, and dead-lettered by the gateway on exactly the configured delivery, with the last error
 *       and the attempt count.</li>
 * </ul>
 * Healthy messages queued around them are applied. Standalone broker: redelivery and dead letters are its behaviour.
 * Subclasses set a short lock timeout on the consumer's datasource.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class PoisonMessageGoesToDeadLetterTest extends InboxTestSupport {

    private final EnvelopeCodec codec = new EnvelopeCodec();

    @Override
    protected ConnectionFactory brokerConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Test
    void nonRetryableMessagesAreDeadLetteredOnTheirFirstDeliveryWithTheirReason() throws Exception {
        String queue = unique("it.poison");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("maxPayloadBytes", "2048"));
        EventEnvelope healthy = orderCreated("alice", "3");
        EventEnvelope unknown = event("OrderShipped", "order-1", "alice", "1", null);
        String missingType = codec.write(orderCreated("bob", "1")).replaceFirst("\"type\" *: *\"OrderCreated\",", "");
        EventEnvelope big = orderCreated("bob", "1");
        String tooLarge = codec.write(big).replace("\"orderId\"", "\"padding\":\"" + "x".repeat(3000) + "\",\"orderId\"");
        // a later envelope version on the same CloudEvents specversion: not read as V1
        String unknownEnvelopeVersion = codec.write(orderCreated("carol", "1"))
                .replaceFirst("\"specversion\":\"1.0\",", "\"specversion\":\"1.0\",\"envelopeversion\":99,");
        List<String> bodies = new ArrayList<>(List.of("{\"specversion\":\"1.0\",\"id\":", missingType,
                codec.write(unknown), tooLarge, unknownEnvelopeVersion, codec.write(healthy)));
        sendRaw(queue, bodies);
        sendOther(queue);

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> deadLetters(queue).size() == 7);
        Map<String, String> reasons = new HashMap<>();
        for (Message dead : deadLetters(queue)) {
            String reasonClass = property(dead, DeadLetterWriter.REASON_CLASS);
            reasons.merge(reasonClass, property(dead, DeadLetterWriter.REASON), (a, b) -> a + " | " + b);
            assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).as(reasonClass).isEqualTo(1);
            assertThat(property(dead, DeadLetterWriter.ORIGINAL_ADDRESS)).isEqualTo(queue);
            assertThat(property(dead, DeadLetterWriter.ORIGINAL_QUEUE)).isEqualTo(queue);
            assertThat(property(dead, DeadLetterWriter.CONSUMER)).isEqualTo(consumer);
            assertThat(property(dead, DeadLetterWriter.FAILED_AT)).isNotBlank();
        }
        assertThat(reasons).containsOnlyKeys("MALFORMED_ENVELOPE", "UNKNOWN_TYPE", "PAYLOAD_TOO_LARGE",
                "UNSUPPORTED_MESSAGE");
        assertThat(reasons.get("MALFORMED_ENVELOPE")).contains("not JSON")
                .contains("required attribute 'type' is missing").contains("body is not UTF-8")
                .contains("unsupported envelopeversion 99");
        assertThat(reasons.get("UNKNOWN_TYPE")).contains("OrderShipped version 1 is not accepted");
        assertThat(reasons.get("PAYLOAD_TOO_LARGE")).contains("exceeds maxPayloadBytes 2048");
        assertThat(reasons.get("UNSUPPORTED_MESSAGE")).contains("ObjectMessage is not read");

        assertThat(effects(healthy.id())).isEqualTo(1);
        assertThat(effects()).as("nothing else applied").isEqualTo(1);
        assertThat(inboxRows(consumer)).isEqualTo(1);
        assertThat(count(queue)).isZero();
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("none was retried").isZero();
        String tooLargeCopy = deadLetters(queue).stream()
                .filter(m -> "PAYLOAD_TOO_LARGE".equals(property(m, DeadLetterWriter.REASON_CLASS)))
                .map(m -> text(m)).findFirst().orElseThrow();
        assertThat(tooLargeCopy).as("the body is kept as received").isEqualTo(tooLarge);
    }

    @Test
    void aTransientFailureIsRetriedByTheBrokerAndDeadLetteredOnTheConfiguredAttemptWithTheLastError()
            throws Exception {
        String queue = unique("it.transient");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("maxDeliveryAttempts", "3",
                "effectSql.OrderCreated", "UPDATE wallet SET total = total + :data.amount WHERE customer_id = "
                        + ":data.customerId"));
        EventEnvelope blocked = orderCreated("alice", "10");
        EventEnvelope healthy = orderCreated("bob", "5");
        try (java.sql.Connection lock = testDataSource().getConnection()) {
            lock.setAutoCommit(false);
            try (PreparedStatement ps = lock.prepareStatement(
                    "SELECT total FROM wallet WHERE customer_id = 'alice' FOR UPDATE")) {
                ps.executeQuery().close();
            }
            send(queue, blocked, healthy);

            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> deadLetters(queue).size() == 1);
            lock.rollback();
        }
        Message dead = deadLetters(queue).get(0);
        assertThat(property(dead, "ce_id")).isEqualTo(blocked.id());
        assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("RETRIES_EXHAUSTED");
        assertThat(property(dead, DeadLetterWriter.REASON)).startsWith("failed on delivery 3 of 3: ");
        assertThat(property(dead, DeadLetterWriter.REASON).toLowerCase(Locale.ROOT)).contains("lock");
        assertThat(property(dead, DeadLetterWriter.EXCEPTION)).isNotBlank();
        assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).isEqualTo(3);
        assertThat(property(dead, DeadLetterWriter.ORIGINAL_ADDRESS)).isEqualTo(queue);
        assertThat(faults.attempts(blocked.id())).as("exactly the configured attempts").isEqualTo(3);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("two returned to the broker").isEqualTo(2.0);
        assertThat(target.queryForObject("SELECT total FROM wallet WHERE customer_id = 'alice'", BigDecimal.class))
                .as("nothing applied").isEqualByComparingTo("0");
        assertThat(target.queryForObject("SELECT total FROM wallet WHERE customer_id = 'bob'", BigDecimal.class))
                .as("the healthy message went through").isEqualByComparingTo("5");
        assertThat(count(queue)).isZero();
    }

    /** A BytesMessage that is not UTF-8 and an ObjectMessage (never deserialised by the consumer). */
    private void sendOther(String queue) throws JMSException {
        try (Connection c = brokerConnectionFactory().createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageProducer p = s.createProducer(s.createQueue(queue))) {
            BytesMessage bytes = s.createBytesMessage();
            bytes.writeBytes(new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'});
            p.send(bytes);
            p.send(s.createObjectMessage(new ArrayList<>(List.of("not", "for", "the", "inbox"))));
        }
    }

    private static String text(Message m) {
        try {
            return ((jakarta.jms.TextMessage) m).getText();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    static String describe(List<Message> messages) {
        return messages.stream().map(m -> property(m, DeadLetterWriter.REASON_CLASS)).collect(Collectors.joining(","));
    }
}
