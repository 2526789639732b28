package io.legacygateway.inbox;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.inbox.DeliveryBatch.Delivery;
import io.legacygateway.tracing.GatewayTracing;
import io.micrometer.core.instrument.Timer;
import io.micrometer.tracing.Span;
import jakarta.jms.Message;
import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code inbox-<consumer>}: ONE database transaction over the batch's next deliveries ({@link InboxGuard}: inbox rows,
 * upcasts, effects in the order received, commit); the body becomes the deliveries it committed, in order. A
 * transaction that fails is handed to {@link FailureDecisions}; while the database is unreachable it is tried again
 * here ({@link DatabaseOutage}).
 *
 * <p>While traces are on, each delivery of a transaction gets an {@code inbox apply} span
 * ({@link GatewayTracing#apply}), ended once the transaction committed, or with an error when it rolled back (a delivery tried again in a later
 * transaction gets a span of its own).
 */
final class ApplyStep implements Processor {

    private final InboxGuard guard;
    private final Timer transaction;
    private final FailureDecisions decisions;
    private final DatabaseOutage outage;
    private final String consumer;
    private final GatewayTracing tracing;

    ApplyStep(InboxGuard guard, InboxMetrics metrics, FailureDecisions decisions, DatabaseOutage outage,
              String consumer, GatewayTracing tracing) {
        this.guard = guard;
        this.consumer = consumer;
        this.tracing = tracing;
        this.transaction = metrics.transaction();
        this.decisions = decisions;
        this.outage = outage;
    }

    @Override
    public void process(Exchange exchange) throws JMSException {
        InboxBatch batch = InboxBatch.of(exchange, "inbox");
        exchange.getMessage().setBody(applyWhenReachable(batch, () -> batch.stopping(exchange)));
    }

    /**
     * {@link #apply}, tried again here while the database is unreachable ({@link TargetDatabaseUnavailableException}):
     * after 1 s, doubling up to {@code maxBackoff}, without limit, on the listener's thread, so that an outage of any
     * length uses no delivery attempt; the batch goes on where it stood (its messages are neither received nor
     * validated again). Once {@code stopping} (the route or the context stops), the failure is thrown instead: the
     * listener rolls the session back and the broker keeps the messages.
     *
     * @return the deliveries it committed, in order; none when it rolled back and the batch goes on smaller
     */
    List<InboxBatch.Committed> applyWhenReachable(InboxBatch batch, BooleanSupplier stopping) throws JMSException {
        long wait = 0;
        while (true) {
            try {
                return apply(batch);
            } catch (TargetDatabaseUnavailableException e) {
                wait = outage.nextWait(wait);
                if (!outage.pause(wait, stopping)) {
                    throw e;
                }
            }
        }
    }

    /**
     * ONE database transaction over the next deliveries of the batch. When it throws
     * {@link TargetDatabaseUnavailableException}, the batch is as it was before the call.
     *
     * @return the deliveries it committed, in order; none when it rolled back and the batch goes on smaller
     */
    List<InboxBatch.Committed> apply(InboxBatch batch) throws JMSException {
        DeliveryBatch deliveries = batch.deliveries;
        List<Delivery> chunk = deliveries.next();
        boolean oneByOne = deliveries.oneByOne();
        List<InboxGuard.Result> results;
        List<Span> spans = tracing.on() ? spans(chunk) : null;
        try {
            results = transaction.record(() -> guard.applyAll(
                    chunk.stream().map(Delivery::inbound).toList(), oneByOne));
        } catch (RuntimeException e) {
            if (spans != null) {
                spans.forEach(s -> s.error(e).end());
            }
            decisions.rolledBack(batch.session, deliveries, chunk, e);
            return List.of();
        }
        if (spans != null) {
            for (int i = 0; i < spans.size(); i++) {
                spans.get(i).tag("gateway.inbox.outcome", results.get(i).outcome().name()).end();
            }
        }
        deliveries.connectionKept();
        List<InboxBatch.Committed> committed = new ArrayList<>(chunk.size());
        for (int i = 0; i < chunk.size(); i++) {
            committed.add(new InboxBatch.Committed(chunk.get(i), results.get(i)));
        }
        chunk.clear();
        return committed;
    }

    private List<Span> spans(List<Delivery> chunk) {
        List<Span> spans = new ArrayList<>(chunk.size());
        for (Delivery d : chunk) {
            EventEnvelope e = d.inbound().envelope();
            spans.add(tracing.apply(consumer, traceparent(d.message()), e.traceparent(), e.id(), e.type()));
        }
        return spans;
    }

    /** The message's {@link EnvelopeMessages#TRACEPARENT} property (the relay's publish span), {@code null} if none. */
    static String traceparent(Message m) {
        try {
            return m.getStringProperty(EnvelopeMessages.TRACEPARENT);
        } catch (JMSException | RuntimeException e) {
            return null; // not a string: another sender's; the envelope's traceparent is the parent then
        }
    }
}
