package io.legacygateway.inbox;

import io.legacygateway.broker.MessageCopies;
import io.legacygateway.envelope.EnvelopeMessages;
import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Clock;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.ActiveMQQueueExistsException;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.jms.client.ActiveMQSession;

/**
 * Moves a message to the broker's dead-letter address from inside the consumer's own transacted JMS session: the copy
 * is sent in the transaction that also acknowledges the original, so the two commit together (the message is on the
 * DLQ and off the queue) or not at all (the message stays on the queue). Never an acknowledgement without a copy.
 *
 * <p>The copy lands where the broker itself puts dead letters: the queue {@code DLQ.<address>} on {@code DLA}
 * (prefix, suffix and address from the broker's settings), which the broker creates as a multicast queue with the
 * filter {@code _AMQ_ORIG_ADDRESS = '<address>'}. The copy therefore carries {@code _AMQ_ORIG_ADDRESS} and
 * {@code _AMQ_ORIG_QUEUE} like a broker dead letter (so it is found per original queue, and the console's "retry"
 * sends it back), and is sent to the address as a multicast message. The queue is created the same way if it does not
 * exist yet, because a message sent to an address with no matching queue would be dropped. Reason properties:
 * {@value #REASON}, {@value #REASON_CLASS}, {@value #EXCEPTION}, {@value #DELIVERY_COUNT}, {@value #CONSUMER},
 * {@value #FAILED_AT}, {@value #ORIGINAL_MESSAGE_ID}. The body is copied as is (text or bytes; other message types
 * as their raw bytes, never deserialised); {@code _AMQ_DUPL_ID} is not copied (the dead-letter address has a
 * duplicate cache of its own).
 */
final class DeadLetterWriter {

    public static final String ORIGINAL_ADDRESS = "_AMQ_ORIG_ADDRESS";
    public static final String ORIGINAL_QUEUE = "_AMQ_ORIG_QUEUE";
    public static final String REASON = "gw_dlq_reason";
    public static final String REASON_CLASS = "gw_dlq_reason_class";
    public static final String EXCEPTION = "gw_dlq_exception";
    public static final String DELIVERY_COUNT = "gw_dlq_delivery_count";
    public static final String CONSUMER = "gw_dlq_consumer";
    public static final String FAILED_AT = "gw_dlq_failed_at";
    public static final String ORIGINAL_MESSAGE_ID = "gw_dlq_original_message_id";

    private final BrokerQueueSettings broker;
    private final InboxSettings.QueueName queue;
    private final String consumer;
    private final Clock clock;

    DeadLetterWriter(BrokerQueueSettings broker, InboxSettings.QueueName queue, String consumer, Clock clock) {
        this.broker = broker;
        this.queue = queue;
        this.consumer = consumer;
        this.clock = clock;
    }

    /** The queue that receives this consumer's dead letters. */
    String deadLetterQueue() {
        return broker.deadLetterQueue(queue.address());
    }

    /** Sends the copy in {@code session}'s transaction; the caller's normal return then commits it with the ack. */
    void send(Session session, Message original, DeadLetterReason reason, String detail, Throwable cause,
              int deliveryCount) throws JMSException {
        ensureQueue(session);
        Message copy = copy(session, original);
        copy.setStringProperty(ORIGINAL_ADDRESS, queue.address());
        copy.setStringProperty(ORIGINAL_QUEUE, queue.queue());
        copy.setStringProperty(REASON_CLASS, reason.name());
        copy.setStringProperty(REASON, truncate(detail == null ? reason.name() : detail, 2000));
        if (cause != null) {
            copy.setStringProperty(EXCEPTION, cause.getClass().getName());
        }
        copy.setIntProperty(DELIVERY_COUNT, deliveryCount);
        copy.setStringProperty(CONSUMER, consumer);
        copy.setStringProperty(FAILED_AT, clock.instant().toString());
        if (original.getJMSMessageID() != null) {
            copy.setStringProperty(ORIGINAL_MESSAGE_ID, original.getJMSMessageID());
        }
        try (MessageProducer producer = session.createProducer(session.createTopic(broker.deadLetterAddress()))) {
            producer.send(copy, DeliveryMode.PERSISTENT, original.getJMSPriority(), 0L);
        }
    }

    private void ensureQueue(Session session) throws JMSException {
        if (!(session instanceof ActiveMQSession artemis)) {
            throw new JMSException("dead letters need an Artemis session, got " + session.getClass().getName());
        }
        ClientSession core = artemis.getCoreSession();
        SimpleString name = SimpleString.of(deadLetterQueue());
        try {
            if (!core.queueQuery(name).isExists()) {
                core.createQueue(QueueConfiguration.of(name).setAddress(broker.deadLetterAddress())
                        .setRoutingType(RoutingType.MULTICAST)
                        .setFilterString(ORIGINAL_ADDRESS + " = '" + queue.address() + "'")
                        .setDurable(true).setAutoCreated(true).setAutoCreateAddress(true));
            }
        } catch (ActiveMQQueueExistsException raced) {
            // another consumer created it in between: fine
        } catch (ActiveMQException e) {
            JMSException j = new JMSException("cannot create dead-letter queue " + name + ": " + e.getMessage());
            j.initCause(e);
            throw j;
        }
    }

    private static Message copy(Session session, Message original) throws JMSException {
        Message copy = MessageCopies.withBody(session, original);
        if (!(original instanceof TextMessage) && !(original instanceof BytesMessage)) {
            copy.setStringProperty("gw_dlq_original_type", original.getClass().getSimpleName());
        }
        MessageCopies.copyHeaders(original, copy, name -> name.equals(EnvelopeMessages.DUPLICATE_ID)
                || name.startsWith("_AMQ_") || name.startsWith("__AMQ")
                || (name.startsWith("JMSX") && !name.equals(EnvelopeMessages.GROUP_ID)));
        return copy;
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    /** How {@code message} is named in a log line: its type and id, printable and short. */
    static String describe(Message message) {
        try {
            // properties are the sender's, not validated: printable and short before they reach a log line
            EnvelopeMessages.Headers envelope = EnvelopeMessages.read(message);
            String id = envelope.id();
            String type = envelope.type();
            String text = (type == null ? "message" : type) + " " + (id == null ? message.getJMSMessageID() : id);
            text = text.replaceAll("\\p{Cntrl}", "?");
            return text.length() <= 200 ? text : text.substring(0, 200) + "…";
        } catch (JMSException | RuntimeException e) {
            return "message";
        }
    }
}
