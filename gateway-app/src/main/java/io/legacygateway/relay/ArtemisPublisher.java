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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a batch in one transacted JMS session: persistent messages, then {@code commit()}, which returns only after
 * the broker has stored the batch (Artemis with {@code journal-sync-transactional=true}, its default).
 *
 * <p>Artemis rejects the commit of a whole transaction that contains one duplicate id ("Duplicate message
 * detected"), which happens when a batch is resent after a crash between publish and mark. Marking nothing would resend
 * that batch forever; marking everything would lose its new rows. So when a commit fails the batch is sent again one
 * message at a time, each send blocking until the broker has stored it; the broker silently drops the messages it
 * already holds and stores the others. (A commit that failed for another reason, for example a lost connection, is
 * in doubt; the same resend is safe for it.)
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
    private final Map<String, Destination> destinations = new HashMap<>();
    /** Set by the connection's exception listener (another thread) when the broker connection failed. */
    private volatile boolean broken;

    public ArtemisPublisher(ConnectionFactory connectionFactory, String relay) {
        this.connectionFactory = connectionFactory;
        this.relay = relay;
    }

    @Override
    public void publish(List<OutboundEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        boolean reused = connection != null && !broken;
        try {
            send(events);
        } catch (PublishException e) {
            if (!reused) {
                throw e;
            }
            // a kept connection may have died since the last batch (broker restart): one retry on a new one
            log.debug("Relay '{}': retrying on a new connection after {}", relay, e.getMessage());
            send(events);
        }
    }

    private void send(List<OutboundEvent> events) {
        try {
            open();
            for (OutboundEvent e : events) {
                send(transacted, transactedProducer, e);
            }
            try {
                transacted.commit();
            } catch (JMSException rolledBack) {
                // typically "Duplicate message detected": the batch was sent before and not marked
                rollbackQuietly();
                log.info("Relay '{}': the broker rejected the commit of a batch of {} ({}); resending one by one, the"
                        + " broker drops the events it already holds", relay, events.size(), firstLine(rolledBack));
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
        producer.send(destination(session, e), m, DeliveryMode.PERSISTENT, jakarta.jms.Message.DEFAULT_PRIORITY, 0L);
    }

    /** Artemis's createQueue/createTopic ask the broker each time: resolve each address once per connection. */
    private Destination destination(Session session, OutboundEvent e) throws JMSException {
        String key = (e.topic() ? "topic:" : "queue:") + e.address();
        Destination d = destinations.get(key);
        if (d == null) {
            if (destinations.size() >= 10_000) {
                destinations.clear(); // a pattern over event types yields few addresses; this only bounds memory
            }
            d = e.topic() ? session.createTopic(e.address()) : session.createQueue(e.address());
            destinations.put(key, d);
        }
        return d;
    }

    private void open() throws JMSException {
        if (broken) {
            close();
        }
        if (connection == null) {
            broken = false;
            connection = connectionFactory.createConnection();
            connection.setExceptionListener(e -> broken = true);
            transacted = connection.createSession(true, Session.SESSION_TRANSACTED);
            transactedProducer = transacted.createProducer(null);
        }
    }

    private void reset() {
        rollbackQuietly();
        close();
    }

    private void rollbackQuietly() {
        if (transacted != null) {
            try {
                transacted.rollback();
            } catch (JMSException | RuntimeException ignored) {
                // nothing left to undo: the broker discards a transaction that did not commit
            }
        }
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int cut = m.indexOf(" Message information");
        return cut > 0 ? m.substring(0, cut) : m;
    }

    @Override
    public void close() {
        Connection c = connection;
        connection = null;
        transacted = null;
        transactedProducer = null;
        destinations.clear();
        if (c != null) {
            try {
                c.close();
            } catch (JMSException | RuntimeException e) {
                log.debug("Relay '{}': closing the broker connection failed: {}", relay, e.toString());
            }
        }
    }
}
