package io.legacygateway.testsupport;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EventEnvelope;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.MessageProducer;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.List;
import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.apache.activemq.artemis.api.jms.management.JMSManagementHelper;

/** Reads what actually reached a queue: exact counts (the broker's) and the messages themselves, in queue order. */
public final class QueueProbe {

    private final ConnectionFactory connectionFactory;

    public QueueProbe(ConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
    }

    /**
     * Messages currently on the queue, as the broker counts them (management attribute {@code messageCount}).
     * Not a browse: a JMS queue browser may end its enumeration early while messages are still being paged in or
     * dispatched, which undercounts on a busy machine.
     */
    public int count(String queue) {
        Message answer = management(m -> JMSManagementHelper.putAttribute(m, ResourceNames.QUEUE + queue,
                "messageCount"));
        // a queue that was never created has no messages
        return answer == null ? 0 : ((Number) result(answer, Long.class)).intValue();
    }

    /**
     * A management attribute, for example ({@code "queue." + name}, {@code "scheduledCount"}) or
     * ({@link ResourceNames#BROKER}, {@code "totalConnectionCount"}).
     *
     * @throws IllegalStateException when the broker refuses (no such resource)
     */
    public long attribute(String resource, String attribute) {
        Message answer = management(m -> JMSManagementHelper.putAttribute(m, resource, attribute));
        if (answer == null) {
            throw new IllegalStateException("no attribute " + attribute + " of " + resource);
        }
        return ((Number) result(answer, Long.class)).longValue();
    }

    /** A management attribute of a queue: {@code messageCount}, {@code scheduledCount}, {@code deliveringCount}. */
    public long queueAttribute(String queue, String attribute) {
        return attribute(ResourceNames.QUEUE + queue, attribute);
    }

    /** Invokes a broker management operation, for example {@code addAddressSettings(match, json)}. */
    public void invokeOnBroker(String operation, Object... arguments) {
        Message answer = management(m -> JMSManagementHelper.putOperationInvocation(m, ResourceNames.BROKER,
                operation, arguments));
        if (answer == null) {
            throw new IllegalStateException("the broker refused " + operation);
        }
    }

    private interface Request {
        void put(Message request) throws Exception;
    }

    /** The management answer, or {@code null} when the broker refused the request or did not answer in 30 s. */
    private Message management(Request request) {
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            c.start();
            TemporaryQueue reply = s.createTemporaryQueue();
            Message m = s.createMessage();
            request.put(m);
            m.setJMSReplyTo(reply);
            try (MessageProducer p = s.createProducer(s.createQueue("activemq.management"));
                 MessageConsumer r = s.createConsumer(reply)) {
                p.send(m);
                Message answer = r.receive(30_000);
                return answer != null && JMSManagementHelper.hasOperationSucceeded(answer) ? answer : null;
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object result(Message answer, Class<?> type) {
        try {
            return JMSManagementHelper.getResult(answer, type);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Sends {@code bodies} as they are, persistent, in one transaction; {@code envelopes[i]} (when present) supplies
     * the properties of body i, and with {@code duplicateIds} its id as the broker's duplicate id. Without it a test
     * can send one envelope twice, as a duplicate delivery.
     */
    public void send(String queue, List<String> bodies, boolean duplicateIds, EventEnvelope... envelopes) {
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(true, Session.SESSION_TRANSACTED);
             MessageProducer p = s.createProducer(s.createQueue(queue))) {
            for (int i = 0; i < bodies.size(); i++) {
                EventEnvelope envelope = i < envelopes.length ? envelopes[i] : null;
                TextMessage m = envelope != null
                        ? EnvelopeMessages.toMessage(s, envelope, bodies.get(i), duplicateIds ? envelope.id() : null,
                                null)
                        : s.createTextMessage(bodies.get(i));
                p.send(m, DeliveryMode.PERSISTENT, Message.DEFAULT_PRIORITY, 0L);
            }
            s.commit();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Consumes every message on the queue, in queue order. */
    public List<TextMessage> drain(String queue) {
        int expected = count(queue);
        List<TextMessage> messages = new ArrayList<>();
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            c.start();
            Queue q = s.createQueue(queue);
            try (MessageConsumer consumer = s.createConsumer(q)) {
                for (int i = 0; i < expected; i++) {
                    Message m = consumer.receive(10_000);
                    if (m == null) {
                        throw new IllegalStateException("queue " + queue + " announced " + expected
                                + " messages, received " + i);
                    }
                    messages.add((TextMessage) m);
                }
            }
            return messages;
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The messages of a queue ({@code address::queue} for a queue of another name), browsed; none when the queue does
     * not exist (a dead-letter queue nobody needed yet).
     */
    public List<Message> browse(String queue) {
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            c.start();
            String name = queue.contains("::") ? queue.substring(queue.indexOf("::") + 2) : queue;
            if (!((org.apache.activemq.artemis.jms.client.ActiveMQSession) s).getCoreSession()
                    .queueQuery(org.apache.activemq.artemis.api.core.SimpleString.of(name)).isExists()) {
                return List.of();
            }
            jakarta.jms.QueueBrowser browser = s.createBrowser(s.createQueue(queue));
            List<Message> all = new ArrayList<>();
            for (Object m : java.util.Collections.list(browser.getEnumeration())) {
                all.add((Message) m);
            }
            return all;
        } catch (JMSException | org.apache.activemq.artemis.api.core.ActiveMQException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String text(TextMessage m) {
        try {
            return m.getText();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String property(Message m, String name) {
        try {
            return m.getStringProperty(name);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
