package io.legacygateway.bench;

import io.legacygateway.broker.BrokerConnections;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.apache.activemq.artemis.api.jms.management.JMSManagementHelper;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/** Counts what a path put on its queue (the broker's exact count) and removes the queue afterwards, as admin. */
final class BrokerQueues {

    private static final long DESTROY_TIMEOUT_MILLIS = 120_000;

    private final ActiveMQConnectionFactory admin;
    private final QueueProbe probe;

    BrokerQueues(StandaloneArtemis artemis) {
        this.admin = artemis.adminConnectionFactory();
        // the broker answers a destroyQueue once it has deleted every message: 100,000 of them took over the
        // client's default 30 s once (a MariaDB run of 2 December 2026), which failed the run
        admin.setCallTimeout(DESTROY_TIMEOUT_MILLIS);
        this.probe = new QueueProbe(admin);
    }

    long count(String queue) {
        return probe.count(queue);
    }

    /** Fails unless the queue holds exactly {@code expected} messages: every figure is checked against the broker. */
    void expect(String queue, long expected, String what) {
        long actual = count(queue);
        if (actual != expected) {
            throw new IllegalStateException(what + ": queue " + queue + " holds " + actual + " messages, expected "
                    + expected);
        }
    }

    /** Deletes the queue and its messages, so that the broker's journal and memory start each path alike. */
    void destroy(String queue) {
        try (Connection c = admin.createConnection(); Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            c.start();
            TemporaryQueue reply = s.createTemporaryQueue();
            Message request = s.createMessage();
            JMSManagementHelper.putOperationInvocation(request, ResourceNames.BROKER, "destroyQueue", queue, true,
                    true);
            request.setJMSReplyTo(reply);
            try (MessageProducer p = s.createProducer(s.createQueue("activemq.management"));
                 MessageConsumer r = s.createConsumer(reply)) {
                p.send(request);
                Message answer = r.receive(DESTROY_TIMEOUT_MILLIS);
                if (answer == null || !JMSManagementHelper.hasOperationSucceeded(answer)) {
                    throw new IllegalStateException("could not delete queue " + queue + ": "
                            + (answer == null ? "no answer" : JMSManagementHelper.getResult(answer)));
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The hand-written programs' factory, as the gateway's user, with the relays' producer window
     * ({@link BrokerConnections#publishingFactory}): a reference must not wait for producer credits that the gateway
     * does not wait for.
     */
    ActiveMQConnectionFactory gatewayConnectionFactory(StandaloneArtemis artemis) {
        ActiveMQConnectionFactory cf = new ActiveMQConnectionFactory(artemis.url(), StandaloneArtemis.GATEWAY_USER,
                "gateway");
        cf.setProducerWindowSize(BrokerConnections.PUBLISHER_WINDOW_BYTES);
        return cf;
    }
}
