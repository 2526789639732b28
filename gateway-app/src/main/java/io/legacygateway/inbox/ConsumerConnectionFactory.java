package io.legacygateway.inbox;

import io.legacygateway.broker.BrokerConnections;
import jakarta.jms.ConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQXAConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection factory of one inbox consumer route: a copy of the application's Artemis factory ({@link
 * BrokerConnections#copyOf}: every client setting of the broker URL and of the factory, credentials included) with
 * the route's consumer window
 * ({@code consumerWindowSize}). With a window of 0 the broker hands a consumer one message per receive, a round trip
 * each, and keeps the rest on the queue: a batch of 100 costs 100 round trips, which made the batched inbox a third of
 * what the broker and database allow. With a window the broker sends up to that many bytes ahead and a batch is
 * received from the client's buffer. The price, bounded by the window: messages buffered by a consumer whose connection
 * dies (a crash, not a stop) are counted as delivered once more each ({@code ServerConsumerImpl} does not trust a
 * failed client), come back as redeliveries (each then in a batch of its own), and other consumers cannot take them
 * meanwhile. A normal close returns them uncounted. Object messages are never deserialised (empty allow list). For
 * {@code transactionMode: XA} it is an XA factory ({@link ActiveMQXAConnectionFactory}), whose XA sessions the listener
 * containers enlist.
 */
final class ConsumerConnectionFactory {

    private static final Logger log = LoggerFactory.getLogger(ConsumerConnectionFactory.class);

    private ConsumerConnectionFactory() {
    }

    static ConnectionFactory create(ConnectionFactory application, int consumerWindowSize, boolean xa) {
        if (!(application instanceof ActiveMQConnectionFactory base)) {
            if (xa) {
                throw new IllegalArgumentException("inbox consumers with transactionMode XA need the Artemis client"
                        + " (spring.artemis.*), not " + application.getClass().getName());
            }
            log.warn("Inbox consumers use connection factory {} as is: set consumerWindowSize={} on it",
                    application.getClass().getName(), consumerWindowSize);
            return application;
        }
        ActiveMQConnectionFactory cf = BrokerConnections.copyOf(base, xa);
        cf.setConsumerWindowSize(consumerWindowSize);
        cf.setDeserializationAllowList("io.legacygateway.inbox.NothingIsDeserialised");
        return cf;
    }
}
