package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.OutboxSource;
import io.legacygateway.relay.AttemptEvidence.AttemptWrite;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.ServiceStatus;
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
 *   <li>A row that fails on its own (it cannot become an event, a step rejects it, or the broker refuses it) is
 *       charged an attempt and waits for its next retry ({@link RetryPolicy}); after {@code maxAttempts} it is parked
 *       as FAILED with its reason. Other aggregates' rows keep flowing; with {@code failedRowPolicy BLOCK_AGGREGATE}
 *       the FAILED row's own aggregate waits until an operator retries it. Confirmed rows are marked and failed rows
 *       charged in the same transaction; so are rows a step dropped ({@link RelaySteps}), marked done unsent.</li>
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
 * <p>Runs as the processor of a Camel timer route ({@code outbox-relay} template), each cycle through the relay's
 * {@link RelayCycleRoute}, whose steps call back here; one instance per route.
 */
public final class OutboxRelay implements Processor, AutoCloseable {

    private final RelaySettings settings;
    private final OutboxSource store;
    private final TransactionTemplate transaction;
    private final EventPublisher publisher;
    private final Clock clock;
    private final List<RelayCycleHook> hooks;
    private final String instance;
    private final DuplicateIds duplicateIds;
    private final AttemptEvidence evidence;
    private final FailedAttempts failedAttempts;
    private final RelayBackoff backoff;
    private final RelayMetrics metrics;
    private final RelayBacklog backlog;
    private final EventsOfACycle events;
    private final RelayCycleRoute route;
    /** Whether the last claim held rows back for {@code maxBatchBytes}: the drain goes on with them at once. */
    private boolean overBudget;
    /** How many more reads of {@code batchSize} rows a claim makes at most to find rows not held back ({@link #claim}). */
    static final int CLAIM_PAST_HELD_BACK = 4;
    /** Cycles run one at a time: the timer and a wake-up ({@link OutboxWakeUp}) both start them. */
    private final ReentrantLock cycles = new ReentrantLock();

    OutboxRelay(RelaySettings settings, OutboxSource store, TransactionTemplate transaction, OutboxEventMapper mapper,
                EventPublisher publisher, Clock clock, RetryJitter jitter, List<RelayCycleHook> hooks,
                String instance, AttemptLog attempts, MeterRegistry meters, RelaySteps steps, CamelContext camel) {
        this.settings = settings;
        this.store = store;
        this.transaction = transaction;
        this.publisher = publisher;
        this.clock = clock;
        this.hooks = List.copyOf(hooks);
        this.instance = instance;
        String relay = settings.relay();
        this.duplicateIds = new DuplicateIds(relay, attempts, meters);
        this.evidence = new AttemptEvidence(relay, attempts);
        this.failedAttempts = new FailedAttempts(settings, jitter);
        this.backoff = new RelayBackoff(settings, clock);
        this.metrics = new RelayMetrics(relay, meters);
        this.backlog = new RelayBacklog(relay, store, clock, meters);
        this.events = new EventsOfACycle(mapper, steps, failedAttempts);
        this.route = new RelayCycleRoute(this, camel);
    }

    /** What the cycle route's per-event steps do with each claimed row. */
    EventsOfACycle events() {
        return events;
    }

    /** The route each cycle runs through (its steps are what Hawtio shows, with their counts). */
    public RelayCycleRoute cycleRoute() {
        return route;
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
        return evidence.attemptLog();
    }

    /** The last backlog sample, {@code null} before the first. */
    public Backlog backlog() {
        return backlog.last();
    }

    /**
     * Called by the timer (and by a wake-up, through the same route): drains the table unless a backoff after failures
     * is still running. Waits while another caller's drain runs.
     */
    @Override
    public void process(Exchange exchange) {
        cycles.lock();
        try {
            if (backoff.waiting()) {
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
        ServiceStatus route = exchange.getFromRouteId() == null ? null
                : exchange.getContext().getRouteController().getRouteStatus(exchange.getFromRouteId());
        return route != null && (route.isStopping() || route.isStopped());
    }

    /**
     * Runs cycles while they return full batches that made progress and {@code stopping} stays false; never at the
     * same time as another drain of this relay.
     *
     * @return events published
     */
    public int drain(BooleanSupplier stopping) {
        int total = 0;
        cycles.lock();
        try {
            CycleOutcome c;
            do {
                c = cycle();
                total += c.published();
            } while ((c.claimed() >= settings.batchSize() || overBudget)
                    && c.published() + c.failed() + c.dropped() > 0
                    && !stopping.getAsBoolean());
            backoff.recovered();
        } catch (RuntimeException e) {
            metrics.rolledBack();
            backoff.failed(e);
        } catch (Error e) {
            // OutOfMemoryError and the like: the cycle rolled back as for an exception; counted, and the relay backs
            // off (the timer would otherwise run the same batch again at once), then the error goes on to the caller
            metrics.rolledBack();
            backoff.failed(e);
            throw e;
        } finally {
            cycles.unlock();
        }
        evidence.flushWhenIdle(); // unless a next cycle's insert carries the last finish soon, it is written alone
        return total;
    }

    /** One claim-publish-mark transaction: the cycle route's run ({@link RelayCycleRoute}). */
    CycleOutcome cycle() {
        Timer.Sample started = Timer.start();
        String id = evidence.newCycle();
        CycleOutcome c;
        try {
            c = Objects.requireNonNull(transaction.execute(status -> route.run(new RelayCycle(id, clock.instant()))));
        } catch (RuntimeException | Error e) {
            evidence.finished(false, List.of());
            throw e;
        }
        evidence.finished(true, c.parkedKeys());
        metrics.committed(started, c); // after commit: a rolled-back cycle published, charged and parked nothing
        return c;
    }

    /**
     * The route's {@code claim} step: a batch of rows, in publication order; none ends the cycle.
     *
     * <p>Several relays on one table: when another relay holds an earlier row of an aggregate (its batch in flight, or
     * a gateway frozen with its claim until the database ends its session after {@code claimLease}), this claim's rows
     * of that aggregate are held back ({@link OutboxSource#behindOtherRows}), and a batch of nothing but them would move
     * nothing, cycle after cycle, while other aggregates wait behind them. So while fewer than {@code batchSize} rows
     * are free to publish, the claim goes on past its last row without the held-back aggregates
     * ({@link OutboxSource#claimPast}), {@code batchSize} rows at a time, at most {@value #CLAIM_PAST_HELD_BACK} times:
     * each read finds other aggregates' rows, never the held-back ones again. Rows past the {@code batchSize}-th free
     * one are left for the next cycle. Only in that case: a cycle whose first claim has rows to publish costs what it
     * did. Not guaranteed: when more aggregates than those reads reach are held back, the batch is smaller than it
     * could be, and rows of aggregates whose head another relay holds wait for it (or for its lease).
     *
     * <p>The rows after the one whose payload reaches {@code maxBatchBytes} wait for the next cycle, uncharged (not in
     * ZERO_WRITE mode, whose position has passed every claimed row).
     */
    boolean claim(RelayCycle c) {
        overBudget = false;
        int batch = settings.batchSize();
        List<OutboxRow> claimed = store.claim(batch, c.now);
        if (claimed.isEmpty()) {
            return false;
        }
        Set<OutboxRow> waiting = store.behindOtherRows(claimed);
        boolean more = claimed.size() == batch;
        for (int reads = 0; more && reads < CLAIM_PAST_HELD_BACK && claimed.size() - waiting.size() < batch
                && store.claimsPast(); reads++) {
            Set<String> heldBack = new HashSet<>();
            waiting.forEach(r -> heldBack.add(r.aggregateId()));
            heldBack.remove(null);
            if (heldBack.isEmpty()) {
                break;
            }
            List<OutboxRow> past = store.claimPast(claimed.get(claimed.size() - 1).order(), heldBack, batch, c.now);
            more = past.size() == batch;
            if (past.isEmpty()) {
                break;
            }
            List<OutboxRow> all = new ArrayList<>(claimed.size() + past.size());
            all.addAll(claimed);
            all.addAll(past);
            claimed = all;
            waiting = store.behindOtherRows(claimed);
        }
        if (claimed.size() > batch) {
            // up to the batchSize-th free row: a row cut off comes after every row kept, so it decides nothing here
            List<OutboxRow> kept = new ArrayList<>(batch);
            int free = 0;
            for (OutboxRow row : claimed) {
                if (free == batch) {
                    break;
                }
                kept.add(row);
                if (!waiting.contains(row)) {
                    free++;
                }
            }
            Set<OutboxRow> all = waiting;
            waiting = kept.stream().filter(all::contains).collect(Collectors.toSet());
            claimed = kept;
        }
        if (settings.markMode() != MarkMode.ZERO_WRITE) {
            waiting = beyondTheBudget(claimed, waiting);
        }
        c.claimed(claimed, waiting, store.keepsOrderPerAggregate());
        return true;
    }

    /**
     * {@code waiting} and every claimed row after the one whose payload reaches {@code maxBatchBytes}, counted over the
     * rows this cycle sends (the first of them always goes). The later rows are held back whole, so no aggregate's order
     * changes; {@link #drain} runs the next cycle at once.
     */
    private Set<OutboxRow> beyondTheBudget(List<OutboxRow> claimed, Set<OutboxRow> waiting) {
        long budget = settings.maxBatchBytes();
        long bytes = 0;
        for (int i = 0; i < claimed.size(); i++) {
            OutboxRow row = claimed.get(i);
            if (waiting.contains(row) || row.payload() == null) {
                continue;
            }
            bytes += OutboxEventMapper.payloadBytes(row.payload(), budget);
            if (bytes >= budget && i + 1 < claimed.size()) {
                Set<OutboxRow> held = new HashSet<>(waiting);
                held.addAll(claimed.subList(i + 1, claimed.size()));
                overBudget = true;
                return held;
            }
        }
        return waiting;
    }

    /**
     * The route's {@code publish} step: the batch's events in one broker transaction. The attempts are written while
     * the batch is sent, and committed before the broker commits any of it: failing there commits nothing on the
     * broker. Then the fence ({@link OutboxSource#proveClaim}), before the batch's commit and before each message's
     * when the batch is sent one at a time: a claim whose session the database ended, or that answered
     * {@code claimLease} or more ago, commits nothing more on the broker and the cycle rolls back as an outage, no row
     * charged (another gateway may hold the rows by now).
     */
    PublishResult publish(RelayCycle c) {
        c.requireOwnThread("publish");
        AttemptWrite write = evidence.write(c.id, c.attempted, c.now);
        PublishResult result;
        try {
            result = publisher.publish(c.events, c.keepOrder(), () -> {
                write.await();
                hooks.forEach(h -> h.beforeBrokerCommit(settings.relay()));
                store.proveClaim(); // the fence: last, right before the broker's commit (see OutboxSource#proveClaim)
            });
            write.await(); // also when nothing was sent
        } catch (RuntimeException e) {
            evidence.notConfirmed(write, e);
            throw e;
        }
        // the answer is written with the mark state once the transaction ended (AttemptLog.finished); the duplicate
        // check reads the log and, when it cannot, counts nothing unexplained rather than failing the cycle
        evidence.answered(write, result, duplicateIds.unexplained(write.cycle(), result));
        return result;
    }

    /**
     * The route's {@code mark} step: confirmed and dropped rows marked, failed ones charged, in the claim's
     * transaction.
     */
    void mark(RelayCycle c, PublishResult result) {
        c.requireOwnThread("mark");
        int unconvertible = c.failed.size(); // before the broker's refusals join them
        List<OutboxFailure> failed = c.failed;
        for (PublishResult.Refusal r : result.refused()) {
            if (failed.stream().noneMatch(f -> f.row().keyText().equals(r.event().row().keyText()))) {
                // a row with copies (alsoPublish) is charged once, however many of its events were refused
                failed.add(failedAttempts.charge(r.event().row(), "refused by the broker: " + r.reason(), c.now));
            }
        }
        List<OutboxRow> rows = c.done(result.confirmed());
        hooks.forEach(h -> h.afterPublishBeforeMark(settings.relay(), rows));
        List<OutboxRow> done = rows;
        if (!c.dropped.isEmpty()) {
            done = new ArrayList<>(rows);
            done.addAll(c.dropped); // dropped on purpose: done, as a published row is
        }
        Instant confirmed = clock.instant();
        for (OutboxFailure refused : store.mark(done, confirmed, instance, failed)) {
            // the database refused this row's own write: parked instead, charged to it and not to the batch
            failed.removeIf(f -> f.row().keyText().equals(refused.row().keyText()));
            failed.add(refused);
        }
        metrics.confirmed(result.confirmed(), confirmed);
        failed.forEach(failedAttempts::log);
        List<String> parkedKeys = failed.stream().filter(OutboxFailure::parked).map(f -> f.row().keyText()).toList();
        c.outcome = new CycleOutcome(c.claimed().size(), rows.size(), failed.size(), unconvertible,
                result.refused().size(), parkedKeys, Map.copyOf(c.droppedBy));
    }

    /**
     * Takes a backlog sample (a few cheap statements on the relay's database, outside any cycle). A failure, for
     * example while the database is unreachable, is counted and logged; the gauges keep the last value and the sample
     * age grows.
     *
     * @return whether the sample succeeded
     */
    public boolean sampleBacklog() {
        return backlog.sample();
    }

    @Override
    public void close() {
        try {
            evidence.flush();
            route.close();
            publisher.close();
        } finally {
            evidence.close();
        }
    }
}
