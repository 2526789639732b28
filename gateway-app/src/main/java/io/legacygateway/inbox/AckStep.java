package io.legacygateway.inbox;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.inbox.DeliveryBatch.Delivery;
import jakarta.jms.JMSException;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;

/**
 * {@code applied-<consumer>}, once per committed delivery (the body): the after-commit hooks
 * ({@link InboxDeliveryHook}), then its outcome counted and logged; and {@code processed-<consumer>}
 * ({@link #processed}), once per batch: every message has its outcome, the listener's commit acknowledges them next.
 */
final class AckStep implements Processor {

    private static final Logger log = InboxLog.CONSUMER;

    private final String consumer;
    private final List<InboxDeliveryHook> hooks;
    private final InboxMetrics metrics;
    private final FailureDecisions decisions;
    private final DatabaseOutage outage;
    /** {@code processed-<consumer>}: the batch's time to its outcomes. */
    private final Processor processed;

    AckStep(String consumer, List<InboxDeliveryHook> hooks, InboxMetrics metrics, FailureDecisions decisions,
            DatabaseOutage outage) {
        this.consumer = consumer;
        this.hooks = List.copyOf(hooks);
        this.metrics = metrics;
        this.decisions = decisions;
        this.outage = outage;
        this.processed = x -> metrics.processed(InboxBatch.of(x, "processed").startedNanos);
    }

    @Override
    public void process(Exchange exchange) throws JMSException {
        applied(InboxBatch.of(exchange, "applied"), exchange.getMessage().getBody(InboxBatch.Committed.class));
    }

    /** {@code processed-<consumer>}: every message of the batch has its outcome; the listener commits next. */
    Processor processed() {
        return processed;
    }

    /** After the commit of {@code c}'s transaction: the hooks, then its outcome counted. */
    void applied(InboxBatch batch, InboxBatch.Committed c) throws JMSException {
        if (afterCommit(batch, c.delivery(), c.result())) {
            done(c.delivery().inbound().envelope(), c.result(), c.delivery().delivery());
        }
    }

    /**
     * Runs the hooks between the database commit and the acknowledgement; a failure there is decided by
     * {@link FailureDecisions#afterCommitFailed}.
     *
     * @return whether the delivery goes on to be acknowledged as applied (false: dead-lettered)
     */
    private boolean afterCommit(InboxBatch batch, Delivery d, InboxGuard.Result result) throws JMSException {
        try {
            hooks.forEach(h -> h.afterDatabaseCommitBeforeAck(consumer, d.inbound().envelope(), result.outcome()));
            return true;
        } catch (RuntimeException e) {
            decisions.afterCommitFailed(batch.session, d, e);
            return false;
        }
    }

    private void done(EventEnvelope envelope, InboxGuard.Result result, int delivery) {
        outage.reachable();
        metrics.outcome(envelope, result);
        switch (result.outcome()) {
            case APPLIED -> log.debug("Inbox '{}': applied {} {} of {}{}", consumer, envelope.type(), envelope.id(),
                    envelope.subject(), result.released() == 0 ? ""
                            : " and released " + result.released() + " parked message(s)");
            case DUPLICATE -> log.info("Inbox '{}': {} {} of {} was applied before; skipped (duplicate, delivery {})",
                    consumer, envelope.type(), envelope.id(), envelope.subject(), delivery);
            case PARKED -> log.info("Inbox '{}': {} {} of {} arrived ahead of its sequence; parked", consumer,
                    envelope.type(), envelope.id(), envelope.subject());
        }
    }
}
