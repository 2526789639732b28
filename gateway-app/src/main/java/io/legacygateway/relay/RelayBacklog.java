package io.legacygateway.relay;

import io.legacygateway.adapters.Failures;
import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.adapters.outbox.OutboxSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * A relay's backlog as last sampled, and the gauges that show it (tagged {@code relay}): rows pending, rows FAILED,
 * the age of the first waiting row and the age of the sample. Each gauge reads NaN before the first sample; a failed
 * sample keeps the last values and the sample age grows.
 */
final class RelayBacklog {

    private static final Logger log = RelayLog.RELAY;

    private final String relay;
    private final OutboxSource store;
    private final Clock clock;
    private final Counter sampleFailures;
    private volatile Backlog backlog;
    private volatile Instant sampledAt;

    RelayBacklog(String relay, OutboxSource store, Clock clock, MeterRegistry meters) {
        this.relay = relay;
        this.store = store;
        this.clock = clock;
        sampleFailures = Counter.builder("gateway.outbox.sample.failures")
                .description("Backlog samples that failed (the gauges keep their last value)")
                .tag("relay", relay).register(meters);
        Gauge.builder("gateway.outbox.pending", this, b -> b.backlog == null ? Double.NaN : b.backlog.pending())
                .description("Rows waiting to be published (retrying rows included), sampled").baseUnit("rows")
                .tag("relay", relay).register(meters);
        Gauge.builder("gateway.outbox.failed", this, b -> b.backlog == null ? Double.NaN : b.backlog.failed())
                .description("Rows parked as FAILED, sampled").baseUnit("rows").tag("relay", relay).register(meters);
        Gauge.builder("gateway.outbox.oldest.pending.age", this, RelayBacklog::oldestPendingAge)
                .description("Age of the first waiting row in outbox order (0 when none waits), from the last sample")
                .baseUnit("seconds").tag("relay", relay).register(meters);
        Gauge.builder("gateway.outbox.sample.age", this,
                        b -> b.sampledAt == null ? Double.NaN : seconds(b.sampledAt, b.clock.instant()))
                .description("Time since the backlog was last sampled successfully").baseUnit("seconds")
                .tag("relay", relay).register(meters);
    }

    /** The last sample, {@code null} before the first. */
    Backlog last() {
        return backlog;
    }

    /** Takes a sample; a failure is counted and logged at DEBUG. @return whether it succeeded */
    boolean sample() {
        try {
            backlog = store.backlog(clock.instant());
            sampledAt = clock.instant();
            return true;
        } catch (RuntimeException e) {
            sampleFailures.increment();
            log.debug("Relay '{}': backlog sample failed: {}", relay, Failures.describe(e));
            return false;
        }
    }

    private double oldestPendingAge() {
        Backlog b = backlog;
        if (b == null) {
            return Double.NaN;
        }
        return b.oldestPending() == null ? 0 : Math.max(0, seconds(b.oldestPending(), clock.instant()));
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toMillis() / 1000.0;
    }
}
