package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.OutboxRejection;
import io.legacygateway.adapters.outbox.OutboxRow;
import io.legacygateway.adapters.outbox.OutboxSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Moves committed outbox rows to the broker: claim, publish, mark, in that order, one batch per database transaction.
 *
 * <p>Guarantees (at-least-once, never exactly-once across the broker):
 * <ul>
 *   <li>A row is marked published only after the broker confirmed it; the mark commits in the transaction that
 *       claimed the row. If publishing fails nothing is marked and the rows stay pending.</li>
 *   <li>A crash after the broker confirmed and before the mark committed publishes the rows again with the same event
 *       id; the broker's duplicate detection drops them while the id is in its cache, and consumers' inboxes absorb any
 *       that get through.</li>
 *   <li>Rows of one aggregate reach the broker in outbox order, also with several relays on one table
 *       ({@link OutboxSource#behindOtherRows}).</li>
 *   <li>A row that cannot become an event is kept with its reason (on the row, or in the gateway's rejection table
 *       in modes that cannot write it there) and counted; it never blocks other rows.</li>
 *   <li>The cycle runs in one transaction of the source's datasource: the legacy database in the modes that mark
 *       rows, the state datasource in ZERO_WRITE mode (whose position then moves only with a confirmed batch).</li>
 * </ul>
 * Not guaranteed: order between rows whose transactions commit out of insertion order, except in ZERO_WRITE mode,
 * which publishes by commit horizon (see the README).
 *
 * <p>Runs as the processor of a Camel timer route ({@code outbox-relay} template); one instance per route.
 */
public final class OutboxRelay implements Processor, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

    private final RelaySettings settings;
    private final OutboxSource store;
    private final TransactionTemplate transaction;
    private final OutboxEventMapper mapper;
    private final EventPublisher publisher;
    private final Clock clock;
    private final List<RelayCycleHook> hooks;
    private final String instance;

    private final Counter published;
    private final Counter rejected;
    private final Counter failures;
    private final Timer cycleTimer;
    private final Timer latency;

    private int consecutiveFailures;
    private Instant nextAttempt = Instant.MIN;
    private String lastFailure;

    OutboxRelay(RelaySettings settings, OutboxSource store, TransactionTemplate transaction, OutboxEventMapper mapper,
                EventPublisher publisher, Clock clock, List<RelayCycleHook> hooks, String instance,
                MeterRegistry meters) {
        this.settings = settings;
        this.store = store;
        this.transaction = transaction;
        this.mapper = mapper;
        this.publisher = publisher;
        this.clock = clock;
        this.hooks = List.copyOf(hooks);
        this.instance = instance;
        String relay = settings.relay();
        this.published = Counter.builder("gateway.outbox.published").description("Events the broker confirmed")
                .tag("relay", relay).register(meters);
        this.rejected = Counter.builder("gateway.outbox.rejected")
                .description("Rows that cannot become an event, kept with their reason")
                .tag("relay", relay).register(meters);
        this.failures = Counter.builder("gateway.outbox.publish.failures")
                .description("Relay cycles rolled back because the broker or the database failed")
                .tag("relay", relay).register(meters);
        this.cycleTimer = Timer.builder("gateway.outbox.cycle").description("Claim, publish and mark of one batch")
                .tag("relay", relay).register(meters);
        this.latency = Timer.builder("gateway.outbox.publish.latency")
                .description("From the row's time (occurred-at, else created-at) to the broker's confirmation")
                .tag("relay", relay).register(meters);
    }

    public String name() {
        return settings.relay();
    }

    public RelaySettings settings() {
        return settings;
    }

    /** Called by the timer: drains the table unless a backoff after failures is still running. */
    @Override
    public void process(Exchange exchange) {
        if (clock.instant().isBefore(nextAttempt)) {
            return;
        }
        drain(() -> stopping(exchange));
    }

    private static boolean stopping(Exchange exchange) {
        if (exchange.getContext().isStopping()) {
            return true;
        }
        org.apache.camel.ServiceStatus route = exchange.getFromRouteId() == null ? null
                : exchange.getContext().getRouteController().getRouteStatus(exchange.getFromRouteId());
        return route != null && (route.isStopping() || route.isStopped());
    }

    /**
     * Runs cycles while they return full batches and {@code stopping} stays false.
     *
     * @return events published
     */
    public int drain(java.util.function.BooleanSupplier stopping) {
        int total = 0;
        try {
            Cycle c;
            do {
                c = cycle();
                total += c.published;
            } while (c.claimed == settings.batchSize() && c.published + c.rejected > 0 && !stopping.getAsBoolean());
            recovered();
        } catch (RuntimeException e) {
            failed(e);
        }
        return total;
    }

    /** One claim-publish-mark transaction. */
    Cycle cycle() {
        Timer.Sample sample = Timer.start();
        Cycle c = Objects.requireNonNull(transaction.execute(status -> {
            List<OutboxRow> claimed = store.claim(settings.batchSize(), clock.instant());
            if (claimed.isEmpty()) {
                return new Cycle(0, 0, 0);
            }
            Set<OutboxRow> waiting = store.behindOtherRows(claimed);
            List<OutboundEvent> events = new ArrayList<>(claimed.size());
            List<OutboxRejection> rejections = new ArrayList<>();
            for (OutboxRow row : claimed) {
                if (waiting.contains(row)) {
                    continue;
                }
                OutboxEventMapper.Result result = mapper.map(row);
                if (result instanceof OutboxEventMapper.Mapped m) {
                    events.add(m.event());
                } else if (result instanceof OutboxEventMapper.Rejected r) {
                    rejections.add(r.rejection());
                }
            }
            publisher.publish(events);
            List<OutboxRow> rows = events.stream().map(OutboundEvent::row).toList();
            hooks.forEach(h -> h.afterPublishBeforeMark(settings.relay(), rows));
            Instant confirmed = clock.instant();
            store.markPublished(rows, confirmed, instance);
            store.markFailed(rejections, confirmed);
            for (OutboundEvent e : events) {
                if (e.envelope().time() != null) {
                    latency.record(Duration.between(e.envelope().time(), confirmed).abs());
                }
            }
            rejections.forEach(r -> log.warn("Relay '{}': row {} of {} rejected ({}): {}", settings.relay(),
                    r.row().key(), settings.table(), settings.markMode(), r.reason()));
            return new Cycle(claimed.size(), events.size(), rejections.size());
        }));
        sample.stop(cycleTimer);
        // counted after commit: a rolled-back cycle published nothing that counts
        published.increment(c.published);
        rejected.increment(c.rejected);
        return c;
    }

    private void failed(RuntimeException e) {
        failures.increment();
        consecutiveFailures++;
        long backoff = Math.min(settings.maxBackoff().toMillis(),
                settings.pollInterval().toMillis() << Math.min(consecutiveFailures - 1, 16));
        nextAttempt = clock.instant().plusMillis(backoff);
        String reason = rootMessage(e);
        if (!reason.equals(lastFailure) || consecutiveFailures % 20 == 1) {
            log.warn("Relay '{}': cycle rolled back, rows stay pending (attempt {} failed, next in {} ms): {}",
                    settings.relay(), consecutiveFailures, backoff, reason, consecutiveFailures == 1 ? e : null);
        }
        lastFailure = reason;
    }

    private void recovered() {
        if (consecutiveFailures > 0) {
            log.info("Relay '{}': working again after {} failed attempts", settings.relay(), consecutiveFailures);
        }
        consecutiveFailures = 0;
        lastFailure = null;
        nextAttempt = Instant.MIN;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " <- " + t;
    }

    @Override
    public void close() {
        publisher.close();
    }

    /** What one cycle did: rows claimed, published and rejected. */
    record Cycle(int claimed, int published, int rejected) {
    }
}
