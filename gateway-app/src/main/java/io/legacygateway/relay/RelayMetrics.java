package io.legacygateway.relay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The meters of one relay's cycles, tagged {@code relay}: what its committed cycles published, charged and parked, the
 * cycles that rolled back, and how long cycles and events took. A rolled-back cycle is counted only as rolled back: it
 * published, charged and parked nothing.
 */
final class RelayMetrics {

    private final Counter published;
    private final Counter rejected;
    private final Counter refused;
    private final Counter retries;
    private final Counter parked;
    private final Counter failures;
    private final Timer cycle;
    private final Timer latency;
    private final String relay;
    private final MeterRegistry meters;

    RelayMetrics(String relay, MeterRegistry meters) {
        this.relay = relay;
        this.meters = meters;
        published = counter("gateway.outbox.published", "Events the broker confirmed", relay, meters);
        rejected = counter("gateway.outbox.rejected",
                "Attempts at rows that cannot become an event (each charged as a failed attempt)", relay, meters);
        refused = counter("gateway.outbox.refused",
                "Attempts the broker refused for the event itself (charged as failed attempts)", relay, meters);
        retries = counter("gateway.outbox.retries", "Failed attempts after which the row waits for another attempt",
                relay, meters);
        parked = counter("gateway.outbox.parked", "Rows parked as FAILED after their last allowed attempt", relay,
                meters);
        failures = counter("gateway.outbox.publish.failures",
                "Relay cycles rolled back because the broker or the database failed (no row charged)", relay, meters);
        cycle = Timer.builder("gateway.outbox.cycle").description("Claim, publish and mark of one batch")
                .tag("relay", relay).register(meters);
        latency = Timer.builder("gateway.outbox.publish.latency")
                .description("From the row's time (occurred-at, else created-at) to the broker's confirmation")
                .tag("relay", relay).register(meters);
    }

    private static Counter counter(String name, String description, String relay, MeterRegistry meters) {
        return Counter.builder(name).description(description).tag("relay", relay).register(meters);
    }

    /** Counts a cycle whose transaction committed, and its duration since {@code started}. */
    void committed(Timer.Sample started, CycleOutcome c) {
        started.stop(cycle);
        published.increment(c.published());
        rejected.increment(c.unconvertible());
        refused.increment(c.refused());
        retries.increment(c.failed() - c.parkedKeys().size());
        parked.increment(c.parkedKeys().size());
        // the reason is a filter's filterReason or a step route's gw_drop: a small set the user chose, not an error text
        c.droppedBy().forEach((reason, n) -> Counter.builder("gateway.outbox.filtered")
                .description("Events a step of the relay dropped: not sent, their rows marked done")
                .tag("relay", relay).tag("reason", reason).register(meters).increment(n));
    }

    /** Counts a cycle that rolled back. */
    void rolledBack() {
        failures.increment();
    }

    /** Records each event's time to the broker's confirmation at {@code confirmedAt} (events without a time: none). */
    void confirmed(List<OutboundEvent> events, Instant confirmedAt) {
        for (OutboundEvent e : events) {
            if (e.envelope().time() != null) {
                latency.record(Duration.between(e.envelope().time(), confirmedAt).abs());
            }
        }
    }
}
