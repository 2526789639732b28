package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.relay.RelayCycle.RelayedRow;
import org.apache.camel.Exchange;

/**
 * What the per-event steps of a relay's cycle route do with each claimed row, in claim order: make its envelope, let
 * the configured {@link RelaySteps} shape it, and record what it became in the {@link RelayCycle}. A row that cannot
 * become an event, or that a step rejects, is charged a failed attempt here and never fails the cycle.
 */
final class EventsOfACycle {

    private final OutboxEventMapper mapper;
    private final RelaySteps steps;
    private final FailedAttempts failedAttempts;

    EventsOfACycle(OutboxEventMapper mapper, RelaySteps steps, FailedAttempts failedAttempts) {
        this.mapper = mapper;
        this.steps = steps;
        this.failedAttempts = failedAttempts;
    }

    /** The steps each event passes before publish; {@link RelaySteps#none()} when none are configured. */
    RelaySteps steps() {
        return steps;
    }

    /**
     * The route's {@code envelope} step, per claimed row: its event (put on the exchange when steps follow), or a
     * failed attempt charged to it. A row behind another relay's row of its aggregate, or behind a row of its
     * aggregate rejected in this batch, is left for a later cycle.
     */
    void envelope(RelayedRow r, RelayCycle c, Exchange exchange) {
        if (!c.turnOf(r.row())) {
            return;
        }
        OutboxEventMapper.Result result = mapper.map(r.row());
        if (result instanceof OutboxEventMapper.Mapped m) {
            r.event(m.event());
            if (!steps.none()) {
                RelaySteps.expose(r, exchange);
            }
        } else if (result instanceof OutboxEventMapper.Rejected j) {
            reject(c, r.row(), j.rejection().reason());
        }
    }

    /**
     * Without steps, the envelope and the record of every claimed row, in claim order: what the route's split does
     * with {@link #envelope} and {@link #settle} per row, without an exchange per row.
     */
    void envelopeAll(RelayCycle c) {
        if (!steps.none()) {
            throw new IllegalStateException("a relay with steps makes its events one exchange at a time");
        }
        for (RelayedRow r : c.rows()) {
            envelope(r, c, null);
            settle(r, c, null);
        }
    }

    /** The route's {@code event} step, per row, after the steps: what the row became is recorded, in claim order. */
    void settle(RelayedRow r, RelayCycle c, Exchange exchange) {
        if (!steps.none()) {
            steps.seal(r, exchange);
        }
        if (r.rejectedFor() != null) {
            reject(c, r.row(), r.rejectedFor());
        } else {
            c.settled(r);
        }
    }

    private void reject(RelayCycle c, OutboxRow row, String reason) {
        OutboxFailure f = failedAttempts.charge(row, reason, c.now);
        // it waits for a retry (or blocks as FAILED): its later rows must not overtake it
        c.rejected(f, reason, c.keepOrder() && (!f.parked() || failedAttempts.blocksAggregate()));
    }
}
