package io.legacygateway.inbox;

import jakarta.jms.Message;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.core.client.impl.ClientLargeMessageImpl;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;

/**
 * The size of a received message's body as the broker delivered it, known without reading the body: a large message's
 * size as the broker sent it with the message (the size of its body file, not a property the sender set), else the
 * bytes of the body buffer already received. Artemis carries a text body as UTF-16, two bytes a character.
 */
final class BrokerBodySize {

    private BrokerBodySize() {
    }

    /** The body's bytes on the broker, {@code -1} when not known (not an Artemis core message). */
    static long of(Message message) {
        if (!(message instanceof ActiveMQMessage artemis)) {
            return -1;
        }
        ClientMessage core = artemis.getCoreMessage();
        if (core instanceof ClientLargeMessageImpl large) {
            return large.getLargeMessageSize();
        }
        return core == null ? -1 : core.getBodySize();
    }

    /**
     * The fewest characters a text body of {@code bytes} on the broker holds (UTF-16 after a short header), each at
     * least one byte of UTF-8: a lower bound of its UTF-8 length that never exceeds it. {@code 0} when not known.
     */
    static long leastTextChars(long bytes) {
        return bytes < 0 ? 0 : Math.max(0, (bytes - 16) / 2);
    }
}
