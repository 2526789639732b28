package io.legacygateway.inbox;

import io.legacygateway.inbox.DeliveryBatch.Delivery;
import jakarta.jms.Message;
import jakarta.jms.Session;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Predicate;
import org.apache.camel.ServiceStatus;

/**
 * One batch of an {@code inbox-consumer} route on its way through the route's steps: the facts one step leaves for
 * the next are its fields. The listener session it was received on, the thread that owns that session (and, in XA, the
 * global transaction), when it began, and the deliveries not handled yet. Kept as an exchange property, shared by the
 * split's sub-exchanges. Used by one listener thread: {@link #of} refuses a step that runs on another, as the session
 * and the transaction would be left behind.
 */
final class InboxBatch {

    /** Exchange property holding the batch. */
    static final String PROPERTY = "gatewayInboxBatch";

    /** A delivery whose database transaction committed, with what the inbox did with it. */
    record Committed(Delivery delivery, InboxGuard.Result result) {
    }

    /** Whether the batch has deliveries left for another database transaction. */
    static final Predicate PENDING = x -> !of(x, "each-transaction").deliveries.done();

    final Session session;
    final DeliveryBatch deliveries;
    final long startedNanos;
    /** The batches of the consumer's listener sessions: whether this one's container is stopping. */
    private final ListenerBatches listener;
    private final Thread thread;

    InboxBatch(ListenerBatches listener, Session session, List<Message> received) {
        this.listener = listener;
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
    boolean stopping(Exchange exchange) {
        CamelContext camel = exchange.getContext();
        if (camel.isStopping() || camel.isStopped() || listener.stopping()) {
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
