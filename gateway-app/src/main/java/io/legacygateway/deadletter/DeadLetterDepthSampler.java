package io.legacygateway.deadletter;

import io.legacygateway.ops.PeriodicJob;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gauge {@code gateway.dlq.depth} (tag {@code queue}: the dead-letter queue, {@code DLQ.<address>}), sampled from
 * the broker every {@code gateway.dead-letters.depth-interval} on a thread of its own, never while Prometheus scrapes
 * (a scrape must not wait for the broker). A queue seen once keeps its series; a queue that disappears reads 0. While
 * the broker cannot be asked the last values stay and one warning is logged (readiness reports the broker). It also
 * registers {@code gateway.dlq.redelivered} at 0 for every queue it sees, so that rates exist before the first
 * redelivery.
 */
public final class DeadLetterDepthSampler extends PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterDepthSampler.class);

    private final DeadLetterBrowser browser;
    private final MeterRegistry meters;
    private final Map<String, AtomicLong> depths = new ConcurrentHashMap<>();
    private final AtomicBoolean failing = new AtomicBoolean();

    DeadLetterDepthSampler(DeadLetterBrowser browser, MeterRegistry meters, Duration interval) {
        super("dlq-depth", Duration.ZERO, interval, true);
        this.browser = browser;
        this.meters = meters;
    }

    /** Reads every dead-letter queue's depth now; {@code false} when the broker could not be asked. */
    public boolean sample() {
        try {
            List<DeadLetterQueue> queues = browser.queues();
            Set<String> seen = new HashSet<>();
            for (DeadLetterQueue q : queues) {
                seen.add(q.name());
                depths.computeIfAbsent(q.name(), this::register).set(q.depth());
            }
            depths.forEach((name, depth) -> {
                if (!seen.contains(name)) {
                    depth.set(0);
                }
            });
            if (failing.compareAndSet(true, false)) {
                log.info("Dead-letter depth: the broker answers again");
            }
            return true;
        } catch (Exception e) {
            if (failing.compareAndSet(false, true)) {
                log.warn("Dead-letter depth: cannot read the queues of {} ({}); gateway_dlq_depth keeps its last "
                        + "values until the broker answers", browser.address(), e.toString());
            }
            return false;
        }
    }

    /** Samples soon on the sampler's thread (after a redelivery); no-op when sampling is off. */
    void sampleSoon() {
        soon(this::sample);
    }

    private AtomicLong register(String queue) {
        AtomicLong value = new AtomicLong();
        Gauge.builder("gateway.dlq.depth", value, AtomicLong::get)
                .description("Messages on the dead-letter queue, sampled from the broker").tag("queue", queue)
                .strongReference(true).register(meters);
        Counter.builder("gateway.dlq.redelivered").description("Dead letters moved back to their original queue")
                .tag("queue", queue).register(meters);
        return value;
    }

    @Override
    protected void tick() {
        sample();
    }
}
