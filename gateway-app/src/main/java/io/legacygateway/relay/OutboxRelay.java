package io.legacygateway.relay;

import io.legacygateway.adapters.Failures;
import io.legacygateway.adapters.outbox.AttemptLog;
import io.legacygateway.adapters.outbox.AttemptLog.Attempt;
import io.legacygateway.adapters.outbox.AttemptLog.Observation;
import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.OutboxRow;
import io.legacygateway.adapters.outbox.OutboxSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 *       claimed the row. If the broker cannot be reached nothing is marked, no row is charged an attempt, and the relay
 *       backs off as a whole.</li>
 *   <li>A crash after the broker confirmed and before the mark committed publishes the rows again with the same
 *       duplicate-detection id ({@link DuplicateIds}: event id and content digest); the broker's duplicate detection
 *       drops them while the id is in its cache, and consumers' inboxes absorb any that get through. A duplicate the
 *       relay has no record of sending is counted, logged and recorded for the reconciliation.</li>
 *   <li>Rows of one aggregate reach the broker in outbox order, also with several relays on one table
 *       ({@link OutboxSource#behindOtherRows}), also when a row of it fails: its later rows wait behind it while it
 *       waits for a retry (except in ZERO_WRITE mode, whose position has moved on).</li>
 *   <li>A row that fails on its own (it cannot become an event, or the broker refuses it) is charged an attempt and
 *       waits for its next retry ({@link RetryPolicy}); after {@code maxAttempts} it is parked as FAILED with its
 *       reason. Other aggregates' rows keep flowing; with {@code failedRowPolicy BLOCK_AGGREGATE} the FAILED row's
 *       own aggregate waits until an operator retries it. Confirmed rows are marked and failed rows charged in the same
 *       transaction.</li>
 *   <li>A mark the database refuses for one row (a trigger raising, a constraint, a value too long) is that row's
 *       failure, not an outage: the batch's other rows are marked, the row is parked as FAILED with the database's
 *       reason and not claimed again ({@link OutboxSource#mark}); its event, already on the broker, stays there.</li>
 *   <li>The cycle runs in one transaction of the source's datasource: the legacy database in the modes that mark
 *       rows, the state datasource in ZERO_WRITE mode (whose position then moves only with a confirmed batch).</li>
 *   <li>With an {@link AttemptLog}, every attempt is recorded and committed before the broker commits its batch (it is
 *       written while the batch is sent; an uncommitted send is never delivered), and
 *       once the cycle's transaction ended the broker's answer with what the mark did, in transactions of their own:
 *       a cycle that rolls back or dies leaves its attempts behind as evidence (the reconciliation report's facts; a
 *       cycle that dies leaves them SENT/NONE, "may have been delivered"). The finish of a committed cycle is written
 *       with the next cycle's attempts (one log transaction per cycle), or when the drain ends or the relay closes;
 *       a process killed in between leaves that cycle SENT/NONE too.</li>
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
    private final RetryJitter jitter;
    private final List<RelayCycleHook> hooks;
    private final String instance;
    private final AttemptLog attempts;
    private final DuplicateIds duplicateIds;
    /** Writes each cycle's attempts while its batch is sent (one write at a time, in cycle order). */
    private final ExecutorService logWriter;
    /** Cycles run one at a time: the timer and a wake-up ({@link OutboxWakeUp}) both start them. */
    private final java.util.concurrent.locks.ReentrantLock cycles = new java.util.concurrent.locks.ReentrantLock();

    private final Counter published;
    private final Counter rejected;
    private final Counter refused;
    private final Counter retries;
    private final Counter parked;
    private final Counter failures;
    private final Counter sampleFailures;
    private final Timer cycleTimer;
    private final Timer latency;

    /** The cycle whose attempts are in the attempt log (cycles of one relay run one at a time). */
    private String loggedCycle;
    /** What the broker answered in that cycle, written to the log with the mark state after the transaction. */
    private AttemptLog.Answer brokerAnswer = AttemptLog.Answer.NO_ANSWER;
    private int consecutiveFailures;
    private Instant nextAttempt = Instant.MIN;
    private String lastFailure;

    /** The last backlog sample and when it was taken; kept through sampling failures. */
    private volatile Backlog backlog;
    private volatile Instant sampledAt;

    OutboxRelay(RelaySettings settings, OutboxSource store, TransactionTemplate transaction, OutboxEventMapper mapper,
                EventPublisher publisher, Clock clock, RetryJitter jitter, List<RelayCycleHook> hooks,
                String instance, AttemptLog attempts, MeterRegistry meters) {
        this.settings = settings;
        this.store = store;
        this.transaction = transaction;
        this.mapper = mapper;
        this.publisher = publisher;
        this.clock = clock;
        this.jitter = jitter;
        this.hooks = List.copyOf(hooks);
        this.instance = instance;
        this.attempts = attempts;
        String relay = settings.relay();
        this.duplicateIds = new DuplicateIds(relay, attempts, meters);
        this.logWriter = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "relay-" + relay + "-attempt-log");
            t.setDaemon(true);
            return t;
        });
        this.published = Counter.builder("gateway.outbox.published").description("Events the broker confirmed")
                .tag("relay", relay).register(meters);
        this.rejected = Counter.builder("gateway.outbox.rejected")
                .description("Attempts at rows that cannot become an event (each charged as a failed attempt)")
                .tag("relay", relay).register(meters);
        this.refused = Counter.builder("gateway.outbox.refused")
                .description("Attempts the broker refused for the event itself (charged as failed attempts)")
                .tag("relay", relay).register(meters);
        this.retries = Counter.builder("gateway.outbox.retries")
                .description("Failed attempts after which the row waits for another attempt")
                .tag("relay", relay).register(meters);
        this.parked = Counter.builder("gateway.outbox.parked")
                .description("Rows parked as FAILED after their last allowed attempt")
                .tag("relay", relay).register(meters);
        this.failures = Counter.builder("gateway.outbox.publish.failures")
                .description("Relay cycles rolled back because the broker or the database failed (no row charged)")
                .tag("relay", relay).register(meters);
        this.sampleFailures = Counter.builder("gateway.outbox.sample.failures")
                .description("Backlog samples that failed (the gauges keep their last value)")
                .tag("relay", relay).register(meters);
        this.cycleTimer = Timer.builder("gateway.outbox.cycle").description("Claim, publish and mark of one batch")
                .tag("relay", relay).register(meters);
        this.latency = Timer.builder("gateway.outbox.publish.latency")
                .description("From the row's time (occurred-at, else created-at) to the broker's confirmation")
                .tag("relay", relay).register(meters);
        Gauge.builder("gateway.outbox.pending", this, r -> r.backlog == null ? Double.NaN : r.backlog.pending())
                .description("Rows waiting to be published (retrying rows included), sampled").baseUnit("rows")
                .tag("relay", relay).register(meters);
        Gauge.builder("gateway.outbox.failed", this, r -> r.backlog == null ? Double.NaN : r.backlog.failed())
                .description("Rows parked as FAILED, sampled").baseUnit("rows").tag("relay", relay).register(meters);
        Gauge.builder("gateway.outbox.oldest.pending.age", this, OutboxRelay::oldestPendingAge)
                .description("Age of the first waiting row in outbox order (0 when none waits), from the last sample")
                .baseUnit("seconds").tag("relay", relay).register(meters);
        Gauge.builder("gateway.outbox.sample.age", this,
                        r -> r.sampledAt == null ? Double.NaN : seconds(r.sampledAt, r.clock.instant()))
                .description("Time since the backlog was last sampled successfully").baseUnit("seconds")
                .tag("relay", relay).register(meters);
    }

    public String name() {
        return settings.relay();
    }

    public RelaySettings settings() {
        return settings;
    }

    /** Where the relay's rows come from (operations: FAILED rows, retries, retention). */
    public OutboxSource source() {
        return store;
    }

    /** A transaction of the source's datasource, as each cycle uses. */
    public TransactionTemplate transaction() {
        return transaction;
    }

    /** The relay's attempt log, {@code null} when {@code attemptLog} is off. */
    public AttemptLog attempts() {
        return attempts;
    }

    /** The last backlog sample, {@code null} before the first. */
    public Backlog backlog() {
        return backlog;
    }

    /**
     * Called by the timer (and by a wake-up, through the same route): drains the table unless a backoff after failures
     * is still running. Waits while another caller's drain runs.
     */
    @Override
    public void process(Exchange exchange) {
        cycles.lock();
        try {
            if (clock.instant().isBefore(nextAttempt)) {
                return;
            }
            drain(() -> stopping(exchange));
        } finally {
            cycles.unlock();
        }
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
     * Runs cycles while they return full batches that made progress and {@code stopping} stays false; never at the
     * same time as another drain of this relay.
     *
     * @return events published
     */
    public int drain(java.util.function.BooleanSupplier stopping) {
        int total = 0;
        cycles.lock();
        try {
            Cycle c;
            do {
                c = cycle();
                total += c.published;
            } while (c.claimed == settings.batchSize() && c.published + c.failed > 0 && !stopping.getAsBoolean());
            recovered();
        } catch (RuntimeException e) {
            failed(e);
        } finally {
            cycles.unlock();
        }
        flushAttempts(); // no next cycle's insert carries the last finish: the relay goes idle
        return total;
    }

    /** One claim-publish-mark transaction. */
    Cycle cycle() {
        Timer.Sample sample = Timer.start();
        String id = attempts == null ? null : UUID.randomUUID().toString();
        loggedCycle = null;
        brokerAnswer = AttemptLog.Answer.NO_ANSWER;
        Cycle c;
        try {
            c = Objects.requireNonNull(transaction.execute(status -> claimPublishMark(id)));
        } catch (RuntimeException e) {
            String logged = loggedCycle;
            AttemptLog.Answer answer = brokerAnswer;
            evidence(() -> attempts.finished(logged, answer, false, List.of()), logged);
            throw e;
        }
        String logged = loggedCycle;
        AttemptLog.Answer answer = brokerAnswer;
        evidence(() -> attempts.finished(logged, answer, true, c.parkedKeys), logged);
        sample.stop(cycleTimer);
        // counted after commit: a rolled-back cycle published, charged and parked nothing
        published.increment(c.published);
        rejected.increment(c.unconvertible);
        refused.increment(c.refused);
        retries.increment(c.failed - c.parkedKeys.size());
        parked.increment(c.parkedKeys.size());
        return c;
    }

    private Cycle claimPublishMark(String cycleId) {
        Instant now = clock.instant();
        List<OutboxRow> claimed = store.claim(settings.batchSize(), now);
        if (claimed.isEmpty()) {
            return new Cycle(0, 0, 0, 0, 0, List.of());
        }
        Set<OutboxRow> waiting = store.behindOtherRows(claimed);
        boolean keepOrder = store.keepsOrderPerAggregate();
        Set<String> stopped = new HashSet<>();
        List<OutboundEvent> events = new ArrayList<>(claimed.size());
        List<OutboxFailure> failed = new ArrayList<>();
        List<Attempt> attempted = new ArrayList<>();
        int unconvertible = 0;
        for (OutboxRow row : claimed) {
            if (waiting.contains(row)) {
                continue;
            }
            if (keepOrder && row.aggregateId() != null && stopped.contains(row.aggregateId())) {
                continue; // an earlier row of its aggregate failed in this batch: it must not overtake it
            }
            OutboxEventMapper.Result result = mapper.map(row);
            if (result instanceof OutboxEventMapper.Mapped m) {
                events.add(m.event());
                attempted.add(new Attempt(row, Observation.SENT, null));
            } else if (result instanceof OutboxEventMapper.Rejected r) {
                OutboxFailure f = failure(row, r.rejection().reason(), now);
                failed.add(f);
                attempted.add(new Attempt(row, Observation.NOT_SENT, r.rejection().reason()));
                unconvertible++;
                if (row.aggregateId() != null && (!f.parked() || blocksAggregate())) {
                    stopped.add(row.aggregateId()); // it waits for a retry (or blocks as FAILED): keep the order
                }
            }
        }
        String logged = attempts == null || attempted.isEmpty() ? null : cycleId;
        // the attempts are written while the batch is sent, and committed before the broker commits any of it:
        // failing there commits nothing on the broker
        AttemptWrite write = logged == null ? AttemptWrite.NONE
                : new AttemptWrite(logWriter.submit(() -> attempts.attempted(logged, attempted, now)));
        PublishResult result;
        try {
            result = publisher.publish(events, keepOrder, write::await);
            write.await(); // also when nothing was sent
        } catch (RuntimeException e) {
            if (write.recorded()) {
                loggedCycle = logged;
            }
            brokerAnswer = new AttemptLog.Answer(Map.of(), Observation.FAILED, Failures.describe(e));
            throw e;
        }
        loggedCycle = logged;
        // the answer is written with the mark state once the transaction ended, in one update (AttemptLog.finished)
        brokerAnswer = new AttemptLog.Answer(observations(result, List.of()), Observation.CONFIRMED, null);
        List<OutboundEvent> unexplained = duplicateIds.unexplained(logged, result.duplicates());
        brokerAnswer = new AttemptLog.Answer(observations(result, unexplained), Observation.CONFIRMED, null);
        for (PublishResult.Refusal r : result.refused()) {
            failed.add(failure(r.event().row(), "refused by the broker: " + r.reason(), now));
        }
        List<OutboxRow> rows = result.confirmed().stream().map(OutboundEvent::row).toList();
        hooks.forEach(h -> h.afterPublishBeforeMark(settings.relay(), rows));
        Instant confirmed = clock.instant();
        for (OutboxFailure refused : store.mark(rows, confirmed, instance, failed)) {
            // the database refused this row's own write: parked instead, charged to it and not to the batch
            failed.removeIf(f -> f.row().keyText().equals(refused.row().keyText()));
            failed.add(refused);
        }
        for (OutboundEvent e : result.confirmed()) {
            if (e.envelope().time() != null) {
                latency.record(Duration.between(e.envelope().time(), confirmed).abs());
            }
        }
        failed.forEach(this::logFailure);
        List<String> parkedKeys = failed.stream().filter(OutboxFailure::parked).map(f -> f.row().keyText()).toList();
        return new Cycle(claimed.size(), rows.size(), failed.size(), unconvertible, result.refused().size(),
                parkedKeys);
    }

    /** The broker's answers other than a plain confirmation, by row key. */
    private static Map<String, Attempt> observations(PublishResult result, List<OutboundEvent> unexplained) {
        Map<String, Attempt> answers = new LinkedHashMap<>();
        for (OutboundEvent e : unexplained) {
            answers.put(e.row().keyText(), new Attempt(e.row(), Observation.DUPLICATE,
                    "the broker already held this event (" + DuplicateIds.of(e) + "); no record of sending it"));
        }
        for (PublishResult.Refusal r : result.refused()) {
            answers.put(r.event().row().keyText(), new Attempt(r.event().row(), Observation.REFUSED, r.reason()));
        }
        for (OutboundEvent e : result.deferred()) {
            answers.put(e.row().keyText(), new Attempt(e.row(), Observation.DEFERRED,
                    "an earlier event of its aggregate was refused in this batch"));
        }
        return answers;
    }

    /**
     * Records evidence after the fact. A failure here must not undo what the broker and the database did: the attempt
     * then keeps its conservative SENT/NONE (it may have been delivered), and the failure is logged.
     */
    private void evidence(Runnable write, String cycleId) {
        if (attempts == null || cycleId == null) {
            return;
        }
        try {
            write.run();
        } catch (RuntimeException e) {
            log.warn("Relay '{}': could not complete the attempt log of cycle {} (its attempts read as sent, outcome"
                    + " unknown): {}", settings.relay(), cycleId, Failures.describe(e));
        }
    }

    /** Writes the attempt log's unwritten finish; a failure leaves it SENT/NONE (see {@link #evidence}). */
    private void flushAttempts() {
        if (attempts != null) {
            evidence(attempts::flush, "(last)");
        }
    }

    private boolean blocksAggregate() {
        return settings.failedRowPolicy() == RelaySettings.FailedRowPolicy.BLOCK_AGGREGATE;
    }

    private OutboxFailure failure(OutboxRow row, String reason, Instant now) {
        int attempts = row.retryCount() + 1;
        return new OutboxFailure(row, reason, attempts,
                settings.retry().nextAttempt(attempts, now, jitter.next()));
    }

    private void logFailure(OutboxFailure f) {
        if (f.parked()) {
            log.warn("Relay '{}': row {} of {} (event {}) parked as FAILED after {} attempt(s){}: {}", settings.relay(),
                    f.row().keyText(), settings.table(), f.row().eventId(), f.attempts(),
                    blocksAggregate() ? "; its aggregate " + f.row().aggregateId() + " waits until it is retried" : "",
                    f.reason());
        } else {
            log.warn("Relay '{}': row {} of {} (event {}) failed attempt {} of {}, next attempt at {}: {}",
                    settings.relay(), f.row().keyText(), settings.table(), f.row().eventId(), f.attempts(),
                    settings.retry().maxAttempts(), f.nextRetryAt(), f.reason());
        }
    }

    private void failed(RuntimeException e) {
        failures.increment();
        consecutiveFailures++;
        long backoff = Math.min(settings.maxBackoff().toMillis(),
                settings.pollInterval().toMillis() << Math.min(consecutiveFailures - 1, 16));
        nextAttempt = clock.instant().plusMillis(backoff);
        String reason = Failures.describe(e);
        if (!reason.equals(lastFailure) || consecutiveFailures % 20 == 1) {
            log.warn("Relay '{}': cycle rolled back, rows stay pending and no row is charged (attempt {} failed, next"
                            + " in {} ms): {}", settings.relay(), consecutiveFailures, backoff, reason,
                    consecutiveFailures == 1 ? e : null);
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

    /**
     * Takes a backlog sample (a few cheap statements on the relay's database, outside any cycle). A failure, for
     * example while the database is unreachable, is counted and logged; the gauges keep the last value and the sample
     * age grows.
     *
     * @return whether the sample succeeded
     */
    public boolean sampleBacklog() {
        try {
            backlog = store.backlog(clock.instant());
            sampledAt = clock.instant();
            return true;
        } catch (RuntimeException e) {
            sampleFailures.increment();
            log.debug("Relay '{}': backlog sample failed: {}", settings.relay(), Failures.describe(e));
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

    @Override
    public void close() {
        try {
            flushAttempts();
            publisher.close();
        } finally {
            logWriter.shutdown();
        }
    }

    /**
     * A cycle's attempt-log write, running on the relay's log thread while the batch is sent ({@link #NONE}: nothing
     * to write).
     */
    private record AttemptWrite(Future<?> write) {
        static final AttemptWrite NONE = new AttemptWrite(CompletableFuture.completedFuture(null));

        /** Waits for the write to commit; throws its failure (then nothing may be committed on the broker). */
        void await() {
            try {
                write.get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r
                        : new IllegalStateException("attempt log write failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the attempt log was written", e);
            }
        }

        /** Waits for the write to end, and tells whether it committed. */
        boolean recorded() {
            try {
                await();
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        }
    }

    /**
     * What one cycle did: rows claimed, published, charged a failed attempt (of which unconvertible, refused by the
     * broker, and parked as FAILED: their keys).
     */
    record Cycle(int claimed, int published, int failed, int unconvertible, int refused, List<String> parkedKeys) {
    }
}
