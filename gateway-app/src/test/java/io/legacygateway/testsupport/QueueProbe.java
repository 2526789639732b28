package io.legacygateway.testsupport;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Reads what actually reached a queue: exact counts (browsing) and the messages themselves, in queue order. */
public final class QueueProbe {

    private final ConnectionFactory connectionFactory;

    public QueueProbe(ConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
    }

    /** Messages currently on the queue (browsed, not consumed). */
    public int count(String queue) {
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            c.start();
            QueueBrowser browser = s.createBrowser(s.createQueue(queue));
            return Collections.list(browser.getEnumeration()).size();
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
