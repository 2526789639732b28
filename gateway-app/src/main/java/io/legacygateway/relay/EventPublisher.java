package io.legacygateway.relay;

import io.legacygateway.envelope.EnvelopeMessages;
import java.util.List;

/**
 * Sends a relay's batch to the broker.
 *
 * <p>Contract: {@link #publish} returns one outcome per event ({@link PublishResult}): confirmed only when the broker
 * has durably accepted it (or already held it, recognised by its duplicate-detection id); refused when the broker
 * refused that event while the connection stayed up. It throws {@link PublishException} when the broker cannot be
 * reached or the connection is lost: then any subset of the batch may have reached the broker, the caller must not
 * mark or charge any row, and a later resend is deduplicated by its duplicate-detection id ({@link DuplicateIds}).
 */
public interface EventPublisher extends AutoCloseable {

    /**
     * @param keepAggregateOrder after a refused event, send no later event of the same aggregate in this batch (report
     *                           them deferred); false where every event must be attempted now (ZERO_WRITE)
     * @param beforeCommit       runs before the broker is asked to commit any of the batch (sends may precede it; an
     *                           uncommitted send is never delivered), possibly more than once, and again before each
     *                           message's own commit when the batch is sent one at a time; when it throws, the
     *                           broker's transaction is rolled back and its exception is thrown as it is: nothing of
     *                           the batch was committed
     * @param traceparents       the W3C {@code traceparent} each event's message carries as the JMS property
     *                           {@link EnvelopeMessages#TRACEPARENT} (its publish span), {@code null} for none;
     *                           {@link Traceparents#NONE} while traces are off
     */
    PublishResult publish(List<OutboundEvent> events, boolean keepAggregateOrder, Runnable beforeCommit,
                          Traceparents traceparents) throws PublishException;

    /** The trace context an event's message carries: never the envelope's own {@code traceparent}, which stays. */
    @FunctionalInterface
    interface Traceparents {

        /** No message carries one. */
        Traceparents NONE = e -> null;

        /** {@code null}: the message carries none. */
        String of(OutboundEvent event);
    }

    @Override
    void close();
}
