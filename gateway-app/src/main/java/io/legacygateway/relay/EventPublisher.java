package io.legacygateway.relay;

import java.util.List;

/**
 * Sends a relay's batch to the broker.
 *
 * <p>Contract: {@link #publish} returns normally only when the broker has durably accepted every event of the batch
 * (or already held it, recognised by its duplicate-detection id). When it throws, any subset of the batch may have
 * reached the broker: the caller must not mark any row, and a later resend is deduplicated by event id.
 */
public interface EventPublisher extends AutoCloseable {

    void publish(List<OutboundEvent> events) throws PublishException;

    @Override
    void close();
}
