package io.legacygateway.adapters.outbox.attempts;

import java.util.Map;

/**
 * The broker's answer to a cycle's batch: the listed rows' own observations (by row key), and {@code rest} for its
 * other sent rows. {@link #NO_ANSWER} when none came (the cycle failed before or while it learned it).
 */
public record BrokerAnswer(Map<String, Attempt> byRowKey, Observation rest, String restDetail) {
    public static final BrokerAnswer NO_ANSWER = new BrokerAnswer(Map.of(), Observation.SENT, null);
}
