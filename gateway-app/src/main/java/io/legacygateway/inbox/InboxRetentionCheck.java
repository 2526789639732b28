package io.legacygateway.inbox;

import io.legacygateway.config.DurationText;
import io.legacygateway.config.GatewayProperties;
import java.time.Duration;

/** The check {@link InboxConsumerFactory} makes of {@code gateway.retention.inbox} against a consumer's queue. */
final class InboxRetentionCheck {

    private InboxRetentionCheck() {
    }

    /**
     * Configuration lint: inbox rows must outlive every way a message can come back, or a redelivery or a dead-letter
     * replay after its row was deleted would apply the effect again. Refuses {@code gateway.retention.inbox} shorter
     * than the broker's redelivery span for the queue (its address settings) plus
     * {@code gateway.dead-letters.replay-horizon}.
     */
    static void requireCoversRedelivery(GatewayProperties properties, String consumer, String address,
                                        BrokerQueueSettings broker, int deliveries) {
        Duration retention = properties.retention().inbox();
        Duration span = broker.redeliverySpan(deliveries);
        Duration horizon = properties.deadLetters().replayHorizon();
        Duration needed = span.plus(horizon);
        if (retention.compareTo(needed) < 0) {
            throw new IllegalArgumentException("gateway.retention.inbox (" + DurationText.format(retention)
                    + ") is shorter than what inbox consumer '" + consumer + "' must remember: the broker's redelivery"
                    + " span for '" + address + "' (" + DurationText.format(span) + ": " + deliveries
                    + " deliveries, redelivery-delay " + broker.redeliveryDelay() + " ms x "
                    + broker.redeliveryMultiplier() + " up to max-redelivery-delay " + broker.maxRedeliveryDelay()
                    + " ms, from " + broker.source() + ") plus gateway.dead-letters.replay-horizon ("
                    + DurationText.format(horizon) + ") = " + DurationText.format(needed) + ". A message redelivered or"
                    + " replayed after its inbox row was deleted would be applied twice: raise gateway.retention.inbox"
                    + " or lower gateway.dead-letters.replay-horizon");
        }
    }
}
