package io.legacygateway.relay;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.jms.client.ActiveMQSession;

/**
 * What a publisher knows of the broker's addresses on its connection: the JMS destination of each address, and the
 * addresses the broker confirmed it routes. Both are asked of the broker once per address and connection and kept
 * until {@link #clear} (a new connection); each is bounded, as a pattern over event types yields few addresses. Not
 * thread-safe, like its publisher.
 */
final class BrokerAddresses {

    private static final int MAX_ADDRESSES = 10_000;

    private final Map<String, Destination> destinations = new HashMap<>();
    /** Addresses the broker confirmed it routes (queue exists or is created on demand). */
    private final Set<String> routable = new HashSet<>();

    /**
     * Why the broker would drop a message to this event's address, or {@code null} when it routes it: a queue that
     * exists or that the broker creates on demand (for a topic: an address that exists or is created; a topic without
     * subscribers drops messages by design). Positive answers are kept for the connection's lifetime.
     */
    String unroutable(Session session, OutboundEvent e) throws JMSException {
        String key = key(e);
        if (routable.contains(key)) {
            return null;
        }
        ClientSession core = ((ActiveMQSession) session).getCoreSession();
        SimpleString name = SimpleString.of(e.address());
        try {
            ClientSession.AddressQuery address = core.addressQuery(name);
            boolean routes;
            if (e.topic()) {
                routes = address.isExists() || address.isAutoCreateAddresses();
            } else {
                routes = core.queueQuery(name).isExists() || (address.isAutoCreateQueues()
                        && (address.isExists() || address.isAutoCreateAddresses()));
            }
            if (routes) {
                if (routable.size() >= MAX_ADDRESSES) {
                    routable.clear();
                }
                routable.add(key);
                return null;
            }
            return (e.topic() ? "topic" : "queue") + " '" + e.address() + "' does not exist on the broker and its"
                    + " address settings do not create it (auto-create-" + (e.topic() ? "addresses" : "queues")
                    + " is false): the broker would drop the message";
        } catch (ActiveMQException failed) {
            JMSException j = new JMSException(failed.getMessage());
            j.setLinkedException(failed);
            j.initCause(failed);
            throw j;
        }
    }

    /** The event's destination: Artemis's createQueue/createTopic ask the broker each time, so once per address. */
    Destination destination(Session session, OutboundEvent e) throws JMSException {
        String key = key(e);
        Destination d = destinations.get(key);
        if (d == null) {
            if (destinations.size() >= MAX_ADDRESSES) {
                destinations.clear(); // a pattern over event types yields few addresses; this only bounds memory
            }
            d = e.topic() ? session.createTopic(e.address()) : session.createQueue(e.address());
            destinations.put(key, d);
        }
        return d;
    }

    /** Forgets everything: the connection they were learnt on is gone. */
    void clear() {
        destinations.clear();
        routable.clear();
    }

    private static String key(OutboundEvent e) {
        return (e.topic() ? "topic:" : "queue:") + e.address();
    }
}
