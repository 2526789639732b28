package io.legacygateway.inbox;

import io.legacygateway.inbox.DeliveryBatch.Delivery;
import jakarta.jms.Message;
import jakarta.jms.Session;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Predicate;
import org.apache.camel.Processor;
import org.apache.camel.ServiceStatus;

/**
 * One batch of an {@code inbox-consumer} route on its way through the route's steps ({@link InboxConsumerTemplate}):
 * the listener session it was received on, the thread that owns that session (and, in XA, the global transaction),
 * and the deliveries not handled yet. Kept as an exchange property, shared by the split's sub-exchanges. Used by one
 * listener thread: {@link #of} refuses a step
 * that runs on another, as the session and the transaction would be left behind.
 */
final class InboxBatch {

    /** Exchange property holding the batch. */
    static final String PROPERTY = "gatewayInboxBatch";

    /** A delivery whose database transaction committed, with what the inbox did with it. */
    record Committed(Delivery delivery, InboxGuard.Result result) {
    }

    /** {@code validate-<consumer>}: the body is one received message. */
    static final Processor VALIDATE = x -> {
        InboxBatch b = of(x, "validate");
        b.consumer.validate(b, x.getMessage().getBody(Message.class));
    };
    /**
     * {@code inbox-<consumer>}: one database transaction, tried again while the database is unreachable and the route
     * runs; the body becomes the deliveries it committed.
     */
    static final Processor TRANSACTION = x -> {
        InboxBatch b = of(x, "inbox");
        x.getMessage().setBody(b.consumer.applyWhenReachable(b, () -> stopping(x, b)));
    };
    /** {@code applied-<consumer>}: the body is one committed delivery. */
    static final Processor APPLIED = x -> {
        InboxBatch b = of(x, "applied");
        b.consumer.applied(b, x.getMessage().getBody(Committed.class));
    };
    /** {@code processed-<consumer>}: the batch has reached its outcomes. */
    static final Processor PROCESSED = x -> {
        InboxBatch b = of(x, "processed");
        b.consumer.processed(b);
    };
    /** Whether the batch has deliveries left for another database transaction. */
    static final Predicate PENDING = x -> !of(x, "each-transaction").deliveries.done();

    final InboxConsumer consumer;
    final Session session;
    final DeliveryBatch deliveries;
    final long startedNanos;
    private final Thread thread;

    InboxBatch(InboxConsumer consumer, Session session, List<Message> received) {
        this.consumer = consumer;
        this.session = session;
        this.deliveries = new DeliveryBatch(received.size());
        this.startedNanos = System.nanoTime();
        this.thread = Thread.currentThread();
    }

    /**
     * Whether the route of {@code exchange}, or its context, is stopping (or stopped). A route's own stop shows first in
     * the listener container of the batch's session, which stops before Camel waits for the batches in hand (the
     * route's status stays started meanwhile).
     */
    private static boolean stopping(Exchange exchange, InboxBatch batch) {
        CamelContext camel = exchange.getContext();
        if (camel.isStopping() || camel.isStopped() || batch.consumer.batches().stopping()) {
            return true;
        }
        String route = exchange.getFromRouteId();
        ServiceStatus status = route == null ? null : camel.getRouteController().getRouteStatus(route);
        return status != null && (status.isStopping() || status.isStopped());
    }

    /**
     * The batch of {@code exchange}, for {@code step}.
     *
     * @throws IllegalStateException when the step runs on another thread than the one that received the batch
     */
    static InboxBatch of(Exchange exchange, String step) {
        InboxBatch batch = exchange.getProperty(PROPERTY, InboxBatch.class);
        if (batch == null) {
            throw new IllegalStateException("inbox step '" + step + "' ran without a batch");
        }
        if (Thread.currentThread() != batch.thread) {
            throw new IllegalStateException("inbox step '" + step + "' ran on thread "
                    + Thread.currentThread().getName() + ", not on the batch's " + batch.thread.getName()
                    + ": a step that hands the exchange to another thread leaves the listener session behind");
        }
        return batch;
    }
}
