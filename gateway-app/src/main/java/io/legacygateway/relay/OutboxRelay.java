package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.adapters.outbox.OutboxSource;
import io.legacygateway.tracing.GatewayTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
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
 * <p>The drain: runs as the processor of a Camel timer route ({@code outbox-relay} template) and owns what spans
 * cycles (one drain at a time, the backoff, the transaction, the metrics); each cycle is a {@link RelayCycle} it sends
 * through the relay's {@link RelayCycleRoute}, whose steps ({@link RelayCycleSteps}) do the work and leave the cycle's
 * facts in it. One instance per route.
 */
public final class OutboxRelay implements Processor, AutoCloseable {

    private final RelaySettings settings;
    private final OutboxSource store;
    private final TransactionTemplate transaction;
    private final EventPublisher publisher;
    private final Clock clock;
    private final AttemptEvidence evidence;
    private final RelayBackoff backoff;
    private final RelayMetrics metrics;
    private final RelayBacklog backlog;
    private final RelayCycleRoute route;
    /** Cycles run one at a time: the timer and a wake-up ({@link OutboxWakeUp}) both start them. */
    private final ReentrantLock cycles = new ReentrantLock();

    OutboxRelay(RelaySettings settings, OutboxSource store, TransactionTemplate transaction, OutboxEventMapper mapper,
                EventPublisher publisher, Clock clock, RetryJitter jitter, List<RelayCycleHook> hooks,
                String instance, AttemptLog attempts, MeterRegistry meters, RelaySteps steps, CamelContext camel,
                GatewayTracing tracing) {
        this.settings = settings;
        this.store = store;
        this.transaction = transaction;
        this.publisher = publisher;
        this.clock = clock;
        String relay = settings.relay();
        this.evidence = new AttemptEvidence(relay, attempts);
        this.backoff = new RelayBackoff(settings, clock);
        this.metrics = new RelayMetrics(relay, meters);
        this.backlog = new RelayBacklog(relay, store, clock, meters);
        FailedAttempts failedAttempts = new FailedAttempts(settings, jitter);
        this.route = new RelayCycleRoute(new RelayCycleSteps(settings, store, publisher, clock, List.copyOf(hooks),
                instance, evidence, new DuplicateIds(relay, attempts, meters), failedAttempts, metrics,
                new EventsOfACycle(mapper, steps, failedAttempts), tracing), camel);
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
            RelayCycle cycle;
            CycleOutcome c;
            do {
                cycle = new RelayCycle(evidence.newCycle(), clock.instant());
                c = run(cycle);
                total += c.published();
            } while ((c.claimed() >= settings.batchSize() || cycle.overBudget)
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
        return total;
    }

    /** One claim-publish-mark transaction (tests: one cycle without the drain's loop, lock and backoff). */
    CycleOutcome cycle() {
        return run(new RelayCycle(evidence.newCycle(), clock.instant()));
    }

    /** Runs {@code cycle} through the cycle route ({@link RelayCycleRoute}) in one transaction. */
    private CycleOutcome run(RelayCycle cycle) {
        Timer.Sample started = Timer.start();
        CycleOutcome c;
        try {
            c = Objects.requireNonNull(transaction.execute(status -> route.run(cycle)));
        } catch (RuntimeException | Error e) {
            if (!cycle.trace.isNoop()) {
                cycle.trace.error(e).end();
            }
            evidence.finished(cycle, false, List.of());
            throw e;
        }
        if (!cycle.trace.isNoop()) { // traces on and events sent: ended after the commit, the cycle's whole time
            cycle.trace.tag("gateway.relay.published", c.published()).end();
        }
        evidence.finished(cycle, true, c.parkedKeys());
        metrics.committed(started, c); // after commit: a rolled-back cycle published, charged and parked nothing
        return c;
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
            route.close();
            publisher.close();
        } finally {
            evidence.close();
        }
    }
}
