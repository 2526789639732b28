package io.legacygateway.inbox;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The batch of the JMS listener session running on the current thread: the first message is received by the listener
 * container as usual ({@link InboxListenerContainers} records it with its {@link MessageConsumer}); {@link #fill}
 * then receives more on the same consumer, so on the same transacted session, before the route returns. The session's
 * commit acknowledges all of them, its rollback returns all of them to the broker.
 *
 * <p>Why not a Camel aggregator behind the {@code jms:} consumer: camel-jms commits each message's session when its
 * exchange completes, so an aggregated batch would be acknowledged before its database transaction ran. Receiving on
 * the listener's own session keeps "database commit, then JMS commit" for the whole batch.
 *
 * <p>A redelivered message ({@code JMSXDeliveryCount > 1}) ends a batch, and a batch that starts with one holds only
 * it: a message that failed and was rolled back is retried on its own, so the messages it was received with do not
 * use their delivery attempts with it again.
 */
final class ListenerBatches {

    private static final String DELIVERY_COUNT = "JMSXDeliveryCount";

    private final ThreadLocal<MessageConsumer> consumer = new ThreadLocal<>();
    private final ThreadLocal<List<Message>> received = ThreadLocal.withInitial(ArrayList::new);
    /** Whether the container of this thread's session still runs. */
    private final ThreadLocal<BooleanSupplier> running = new ThreadLocal<>();

    /**
     * The container received {@code first} on {@code from}: a new batch of this thread's session starts.
     *
     * @param running whether that container still runs (false once its stop began)
     */
    void started(MessageConsumer from, Message first, BooleanSupplier running) {
        consumer.set(from);
        this.running.set(running);
        List<Message> batch = received.get();
        batch.clear();
        batch.add(first);
    }

    /**
     * Receives up to {@code batchSize - 1} more messages after {@code first} on its session, waiting at most
     * {@code wait} from now for them; a message already queued is taken without waiting.
     *
     * @return the batch in the order received, {@code first} first; only {@code first} when it was not received by
     *         this thread's container (nothing else is on its session)
     */
    List<Message> fill(Message first, int batchSize, Duration wait) throws JMSException {
        return fill(first, batchSize, Long.MAX_VALUE, wait);
    }

    /**
     * {@link #fill(Message, int, Duration)}, ending the batch once its bodies reach {@code maxBytes} as the broker
     * gives their sizes ({@link BrokerBodySize}; a message whose size is not known counts 0): the message that reaches
     * it is the batch's last. The first message is always taken, whatever its size.
     */
    List<Message> fill(Message first, int batchSize, long maxBytes, Duration wait) throws JMSException {
        List<Message> batch = received.get();
        MessageConsumer from = consumer.get();
        if (from == null || batch.size() != 1 || batch.get(0) != first) {
            return List.of(first);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        boolean redelivered = deliveryCount(first) > 1;
        long bytes = Math.max(0, BrokerBodySize.of(first));
        while (!redelivered && batch.size() < batchSize && bytes < maxBytes) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            Message next = left >= 1 ? from.receive(left) : from.receiveNoWait();
            if (next == null) {
                break;
            }
            batch.add(next);
            bytes += Math.max(0, BrokerBodySize.of(next));
            redelivered = deliveryCount(next) > 1;
        }
        return List.copyOf(batch);
    }

    /** The messages on this thread's session now: what its commit acknowledges. */
    List<Message> current() {
        return List.copyOf(received.get());
    }

    /**
     * Whether the container of this thread's session is stopping: a route's stop stops its container first and then
     * waits for the batch in hand, which must then give up rather than wait for its database.
     */
    boolean stopping() {
        BooleanSupplier r = running.get();
        return r != null && !r.getAsBoolean();
    }

    /** The session committed or rolled back. */
    void ended() {
        received.get().clear();
    }

    /**
     * The message's {@code JMSXDeliveryCount}, 1 when its provider does not set it. Read without asking
     * {@code propertyExists} first: Artemis answers this property from the message's delivery count, whereas the
     * question looks it up among the decoded properties (docs/architecture.md, "Decisions").
     */
    static int deliveryCount(Message message) {
        try {
            return Math.max(1, message.getIntProperty(DELIVERY_COUNT));
        } catch (JMSException | RuntimeException e) {
            return 1; // not set: a missing property reads as null, which is no int
        }
    }
}
