package io.legacygateway.relay;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.envelope.MessageProperties;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionRolledBackException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a batch in one transacted JMS session: persistent messages, then {@code commit()}, which returns only after
 * the broker has stored the batch (Artemis with {@code journal-sync-transactional=true}, its default).
 *
 * <p>Artemis rolls back a whole transaction that contains one duplicate id ("Duplicate message detected"), which
 * happens when a batch is resent after a crash between publish and mark. Marking nothing would resend that batch
 * forever; marking everything would lose its new rows. So when a commit is rolled back the batch is sent again one
 * message at a time, each send blocking until the broker has stored it; the broker silently drops the messages it
 * already holds and stores the others.
 *
 * <p>Not thread-safe: one instance per relay. The connection is kept between batches and rebuilt after a failure.
 */
public final class ArtemisPublisher implements EventPublisher {

    private static final Logger log = LoggerFactory.getLogger(ArtemisPublisher.class);

    private final ConnectionFactory connectionFactory;
    private final String relay;
    private Connection connection;
    private Session transacted;
    private MessageProducer transactedProducer;

    public ArtemisPublisher(ConnectionFactory connectionFactory, String relay) {
        this.connectionFactory = connectionFactory;
        this.relay = relay;
    }

    @Override
    public void publish(List<OutboundEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        try {
            open();
            for (OutboundEvent e : events) {
                send(transacted, transactedProducer, e);
            }
            try {
                transacted.commit();
            } catch (TransactionRolledBackException rolledBack) {
                log.info("Relay '{}': the broker rolled back a batch of {} ({}); resending one by one, the broker drops"
                        + " the events it already holds", relay, events.size(), rolledBack.getMessage());
                resendOneByOne(events);
            }
        } catch (JMSException | RuntimeException e) {
            reset();
            throw new PublishException("broker did not confirm a batch of " + events.size() + ": " + e, e);
        }
    }

    private void resendOneByOne(List<OutboundEvent> events) throws JMSException {
        // Non-transacted persistent sends block until the broker has stored each message (blockOnDurableSend, the
        // default); a duplicate id makes the broker ignore that message without failing the send.
        try (Session single = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageProducer producer = single.createProducer(null)) {
            for (OutboundEvent e : events) {
                send(single, producer, e);
            }
        }
    }

    private void send(Session session, MessageProducer producer, OutboundEvent e) throws JMSException {
        EventEnvelope env = e.envelope();
        TextMessage m = session.createTextMessage(e.json());
        m.setStringProperty(MessageProperties.DUPLICATE_ID, env.id());
        m.setStringProperty(MessageProperties.GROUP_ID, env.groupId());
        m.setStringProperty(MessageProperties.ID, env.id());
        m.setStringProperty(MessageProperties.TYPE, env.type());
        m.setStringProperty(MessageProperties.SOURCE, env.source());
        m.setStringProperty(MessageProperties.SUBJECT, env.subject());
        m.setIntProperty(MessageProperties.EVENT_VERSION, env.eventVersion());
        m.setStringProperty(MessageProperties.AGGREGATE_TYPE, env.aggregateType());
        m.setStringProperty(MessageProperties.RELAY, relay);
        if (env.correlationId() != null) {
            m.setJMSCorrelationID(env.correlationId());
        }
        Destination d = e.topic() ? session.createTopic(e.address()) : session.createQueue(e.address());
        producer.send(d, m, DeliveryMode.PERSISTENT, jakarta.jms.Message.DEFAULT_PRIORITY, 0L);
    }

    private void open() throws JMSException {
        if (connection == null) {
            connection = connectionFactory.createConnection();
            transacted = connection.createSession(true, Session.SESSION_TRANSACTED);
            transactedProducer = transacted.createProducer(null);
        }
    }

    private void reset() {
        if (transacted != null) {
            try {
                transacted.rollback();
            } catch (JMSException | RuntimeException ignored) {
                // the session is being thrown away; the broker discards an uncommitted transaction
            }
        }
        close();
    }

    @Override
    public void close() {
        Connection c = connection;
        connection = null;
        transacted = null;
        transactedProducer = null;
        if (c != null) {
            try {
                c.close();
            } catch (JMSException | RuntimeException e) {
                log.debug("Relay '{}': closing the broker connection failed: {}", relay, e.toString());
            }
        }
    }
}
