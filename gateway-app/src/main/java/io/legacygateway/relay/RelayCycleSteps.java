package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.OutboxSource;
import io.legacygateway.relay.AttemptEvidence.AttemptWrite;
import io.legacygateway.tracing.GatewayTracing;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The steps of one relay's cycle, in route order: {@code claim}, the per-event steps ({@link EventsOfACycle}),
 * {@code publish}, {@code mark}. Each works on the store, the publisher and the evidence, and takes what the steps
 * before it found from the {@link RelayCycle} and leaves its own facts there; none knows the route that runs it nor
 * the drain around it. Every step runs on the cycle's thread, in its transaction.
 */
final class RelayCycleSteps {

    /** How many more reads of {@code batchSize} rows a claim makes at most to find rows not held back. */
    static final int CLAIM_PAST_HELD_BACK = 4;

    private final RelaySettings settings;
    private final OutboxSource store;
    private final EventPublisher publisher;
    private final Clock clock;
    private final List<RelayCycleHook> hooks;
    private final String instance;
    private final AttemptEvidence evidence;
    private final DuplicateIds duplicateIds;
    private final FailedAttempts failedAttempts;
    private final RelayMetrics metrics;
    private final EventsOfACycle events;
    private final GatewayTracing tracing;

    RelayCycleSteps(RelaySettings settings, OutboxSource store, EventPublisher publisher, Clock clock,
                    List<RelayCycleHook> hooks, String instance, AttemptEvidence evidence, DuplicateIds duplicateIds,
                    FailedAttempts failedAttempts, RelayMetrics metrics, EventsOfACycle events,
                    GatewayTracing tracing) {
        this.settings = settings;
        this.store = store;
        this.publisher = publisher;
        this.clock = clock;
        this.hooks = hooks;
        this.instance = instance;
        this.evidence = evidence;
        this.duplicateIds = duplicateIds;
        this.failedAttempts = failedAttempts;
        this.metrics = metrics;
        this.events = events;
        this.tracing = tracing;
    }

    /** The relay's name: the steps' ids in the route end with it. */
    String relay() {
        return settings.relay();
    }

    /** The per-event steps, between claim and publish. */
    EventsOfACycle events() {
        return events;
    }

    /**
     * The {@code claim} step: a batch of rows, in publication order; none ends the cycle.
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
            waiting = beyondTheBudget(c, claimed, waiting);
        }
        c.claimed(claimed, waiting, store.keepsOrderPerAggregate());
        return true;
    }

    /**
     * {@code waiting} and every claimed row after the one whose payload reaches {@code maxBatchBytes}, counted over the
     * rows this cycle sends (the first of them always goes). The later rows are held back whole, so no aggregate's order
     * changes; the cycle says so ({@link RelayCycle#overBudget}), and the drain runs the next cycle at once.
     */
    private Set<OutboxRow> beyondTheBudget(RelayCycle c, List<OutboxRow> claimed, Set<OutboxRow> waiting) {
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
                c.overBudget = true;
                return held;
            }
        }
        return waiting;
    }

    /**
     * The {@code publish} step: the batch's events in one broker transaction, whose answer it leaves in the cycle
     * ({@link RelayCycle#publishResult}). The attempts are written while the batch is sent, and committed before the
     * broker commits any of it: failing there commits nothing on the broker. Then the fence
     * ({@link OutboxSource#proveClaim}), before the batch's commit and before each message's when the batch is sent
     * one at a time: a claim whose session the database ended, or that answered {@code claimLease} or more ago,
     * commits nothing more on the broker and the cycle rolls back as an outage, no row charged (another gateway may
     * hold the rows by now).
     *
     * <p>While traces are on, each event gets a {@code publish} span ({@link PublishSpans}), ended with the broker's
     * answer, and the cycle its {@code relay cycle} span, which the drain ends.
     */
    void publish(RelayCycle c) {
        c.requireOwnThread("publish");
        AttemptWrite write = evidence.write(c.id, c.attempted, c.now);
        PublishResult result;
        EventPublisher.Traceparents traces = PublishSpans.start(tracing, c, settings.relay(), settings.batchSize());
        try {
            result = publisher.publish(c.events, c.keepOrder(), () -> {
                write.await();
                hooks.forEach(h -> h.beforeBrokerCommit(settings.relay()));
                store.proveClaim(); // the fence: last, right before the broker's commit (see OutboxSource#proveClaim)
            }, traces);
            write.await(); // also when nothing was sent
        } catch (RuntimeException e) {
            PublishSpans.failed(traces, e);
            evidence.notConfirmed(c, write, e);
            throw e;
        }
        PublishSpans.answered(traces, result);
        // the answer is written with the mark state (AttemptLog.finishInCycle); the duplicate check reads the log and,
        // when it cannot, counts nothing unexplained rather than failing the cycle
        evidence.answered(c, write, result, duplicateIds.unexplained(write.cycle(), result));
        c.publishResult = result;
    }

    /**
     * The {@code mark} step, after the broker's answer: confirmed and dropped rows marked, failed ones charged, in the
     * claim's transaction; the cycle's outcome set.
     */
    void mark(RelayCycle c) {
        c.requireOwnThread("mark");
        PublishResult result = c.publishResult;
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
        evidence.finishInCycle(c, parkedKeys); // commits with the mark, or not at all
        c.outcome = new CycleOutcome(c.claimed().size(), rows.size(), failed.size(), unconvertible,
                result.refused().size(), parkedKeys, Map.copyOf(c.droppedBy));
    }
}
