package io.legacygateway.testsupport;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
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
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            c.start();
            TemporaryQueue reply = s.createTemporaryQueue();
            Message request = s.createMessage();
            JMSManagementHelper.putAttribute(request, ResourceNames.QUEUE + queue, "messageCount");
            request.setJMSReplyTo(reply);
            try (MessageProducer p = s.createProducer(s.createQueue("activemq.management"));
                 MessageConsumer r = s.createConsumer(reply)) {
                p.send(request);
                Message answer = r.receive(30_000);
                if (answer == null || !JMSManagementHelper.hasOperationSucceeded(answer)) {
                    // a queue that was never created has no messages
                    return 0;
                }
                return ((Number) JMSManagementHelper.getResult(answer, Long.class)).intValue();
            }
        } catch (Exception e) {
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
