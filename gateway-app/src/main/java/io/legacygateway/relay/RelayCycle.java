package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.attempts.Attempt;
import io.legacygateway.adapters.outbox.attempts.BrokerAnswer;
import io.legacygateway.adapters.outbox.attempts.Observation;
import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.micrometer.tracing.Span;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One claim-publish-mark cycle as it passes the steps of its relay's cycle route: what it claimed, what each row
 * became (an event to send, a dropped event, a rejected row, or a row held back), what the broker answered, what it
 * marked. Each step ({@link RelayCycleSteps}) reads what the steps before it left here and leaves its own facts here;
 * the drain reads the outcome. It lives on one thread, inside the cycle's transaction, and is never shared.
 */
final class RelayCycle {

    final String id;
    final Instant now;
    /** The thread the cycle's transaction is bound to: every step must run on it. */
    private final Thread thread = Thread.currentThread();
    private List<OutboxRow> claimed = List.of();
    private List<RelayedRow> rows = List.of();
    private Set<OutboxRow> waiting = Set.of();
    private boolean keepOrder;
    /** Aggregates with a row rejected in this batch: their later rows must not overtake it. */
    private final Set<String> stopped = new HashSet<>();
    final List<OutboundEvent> events = new ArrayList<>();
    final List<OutboxFailure> failed = new ArrayList<>();
    final List<Attempt> attempted = new ArrayList<>();
    final List<OutboxRow> dropped = new ArrayList<>();
    final Map<String, Integer> droppedBy = new LinkedHashMap<>();
    /** Whether the claim held rows back for {@code maxBatchBytes}: the drain goes on with them at once. */
    boolean overBudget;
    /** The broker's answer to the batch, from {@code publish} for {@code mark}; {@code null} before. */
    PublishResult publishResult;
    /** The cycle id under which this cycle's attempts are in the attempt log; {@code null} while they are not. */
    String logged;
    /** What the broker answered, written to the attempt log with the mark state once the transaction ended. */
    BrokerAnswer brokerAnswer = BrokerAnswer.NO_ANSWER;
    CycleOutcome outcome = CycleOutcome.NOTHING_CLAIMED;
    /** The {@code relay cycle} span: made by {@code publish} while traces are on, ended by the drain. */
    Span trace = Span.NOOP;

    RelayCycle(String id, Instant now) {
        this.id = id;
        this.now = now;
    }

    void claimed(List<OutboxRow> claimed, Set<OutboxRow> waiting, boolean keepOrder) {
        this.claimed = claimed;
        this.waiting = waiting;
        this.keepOrder = keepOrder;
        List<RelayedRow> r = new ArrayList<>(claimed.size());
        claimed.forEach(row -> r.add(new RelayedRow(row)));
        this.rows = r;
    }

    List<OutboxRow> claimed() {
        return claimed;
    }

    /** The claimed rows, in order: the cycle route's split runs its per-event steps on each. */
    List<RelayedRow> rows() {
        return rows;
    }

    boolean keepOrder() {
        return keepOrder;
    }

    /** Whether this row is sent this cycle at all: not behind another relay's row, nor behind a rejected one. */
    boolean turnOf(OutboxRow row) {
        return !waiting.contains(row) && !(keepOrder && row.aggregateId() != null && stopped.contains(row.aggregateId()));
    }

    /** Stops the later rows of this row's aggregate in this batch (it waits for a retry, or blocks as FAILED). */
    void stop(OutboxRow row) {
        if (row.aggregateId() != null) {
            stopped.add(row.aggregateId());
        }
    }

    /** Records a row the relay charged a failed attempt, not sent. */
    void rejected(OutboxFailure failure, String reason, boolean stopsAggregate) {
        failed.add(failure);
        attempted.add(new Attempt(failure.row(), Observation.NOT_SENT, reason));
        if (stopsAggregate) {
            stop(failure.row());
        }
    }

    /** Records what a row's per-event steps made of it, in claim order. */
    void settled(RelayedRow r) {
        if (r.event() != null && r.droppedFor() == null && r.rejectedFor() == null) {
            events.add(r.event());
            events.addAll(r.copies()); // right after it: a refusal of one defers the rest of its aggregate
            attempted.add(new Attempt(r.row(), Observation.SENT, null));
        } else if (r.droppedFor() != null) {
            dropped.add(r.row());
            droppedBy.merge(r.droppedFor(), 1, Integer::sum);
            attempted.add(new Attempt(r.row(), Observation.FILTERED, r.droppedFor()));
        }
    }

    /**
     * The rows whose every event the broker confirmed, in claim order: with {@code alsoPublish} a row is done only
     * when its event and all its copies are; a row with one event is done with it.
     */
    List<OutboxRow> done(List<OutboundEvent> confirmed) {
        if (events.size() == attempted.stream().filter(a -> a.observation() == Observation.SENT).count()) {
            return confirmed.stream().map(OutboundEvent::row).toList(); // one event per row: no copies
        }
        Map<String, Integer> expected = new LinkedHashMap<>();
        events.forEach(e -> expected.merge(e.row().keyText(), 1, Integer::sum));
        Map<String, Integer> got = new LinkedHashMap<>();
        confirmed.forEach(e -> got.merge(e.row().keyText(), 1, Integer::sum));
        List<OutboxRow> done = new ArrayList<>();
        for (OutboundEvent e : confirmed) {
            String key = e.row().keyText();
            if (got.get(key).equals(expected.get(key)) && got.put(key, -1) > 0) {
                done.add(e.row()); // once, at its first confirmed event
            }
        }
        return done;
    }

    /** Guards the transaction: a step that moved the cycle to another thread would leave it behind. */
    void requireOwnThread(String step) {
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException("relay cycle step '" + step + "' ran on thread "
                    + Thread.currentThread().getName() + ", not on the cycle's " + thread.getName()
                    + ": a step that hands the exchange to another thread leaves the cycle's transaction behind");
        }
    }

    /** One claimed row on its way through the per-event steps. */
    static final class RelayedRow {

        private final OutboxRow row;
        private OutboundEvent event;
        private boolean sealed;
        /** {@code alsoPublish}: the event in other versions, to other destinations. */
        private List<OutboundEvent> copies = List.of();
        private String droppedFor;
        private String rejectedFor;

        RelayedRow(OutboxRow row) {
            this.row = row;
        }

        OutboxRow row() {
            return row;
        }

        OutboundEvent event() {
            return event;
        }

        /** Whether the steps still work on it: it became an event, not dropped, not rejected. */
        boolean open() {
            return event != null && droppedFor == null && rejectedFor == null;
        }

        void event(OutboundEvent e) {
            event = e;
        }

        void shaped(OutboundEvent e) {
            event = e;
        }

        /** Whether the steps' result was made into the event to send (once, by the first step that needs it). */
        boolean sealed() {
            return sealed;
        }

        void sealed(boolean s) {
            sealed = s;
        }

        void copies(List<OutboundEvent> c) {
            copies = c;
        }

        List<OutboundEvent> copies() {
            return copies;
        }

        void drop(String reason) {
            droppedFor = reason;
        }

        void reject(String reason) {
            rejectedFor = reason;
        }

        String droppedFor() {
            return droppedFor;
        }

        String rejectedFor() {
            return rejectedFor;
        }
    }
}
