package io.legacygateway.relay;

import io.legacygateway.adapters.Failures;
import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.outbox.attempts.Attempt;
import io.legacygateway.adapters.outbox.attempts.BrokerAnswer;
import io.legacygateway.adapters.outbox.attempts.Observation;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;

/**
 * The evidence a relay leaves of its cycles in its {@link AttemptLog} (nothing when the log is off): a cycle's attempts
 * are written on the relay's log thread while its batch is sent, and committed before the broker commits the batch;
 * the broker's answer and what the mark did are written with the mark, in the cycle's transaction, where the log shares
 * the cycle's database, else once the transaction ended. A failure to complete the evidence after the fact never
 * undoes what the broker and the database did: the attempt keeps its conservative SENT/NONE (it may have been
 * delivered) and the failure is logged. One cycle at a time, in cycle order.
 */
final class AttemptEvidence implements AutoCloseable {

    private static final Logger log = RelayLog.RELAY;

    private final String relay;
    private final AttemptLog attempts;
    /** Writes each cycle's attempts while its batch is sent (one write at a time, in cycle order). */
    private final ExecutorService writer;

    /** @param attempts the relay's attempt log, {@code null} when {@code attemptLog} is off */
    AttemptEvidence(String relay, AttemptLog attempts) {
        this.relay = relay;
        this.attempts = attempts;
        this.writer = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "relay-" + relay + "-attempt-log");
            t.setDaemon(true);
            return t;
        });
    }

    /** The attempt log, {@code null} when it is off. */
    AttemptLog attemptLog() {
        return attempts;
    }

    /** @return a new cycle's id in the log, {@code null} when the log is off */
    String newCycle() {
        return attempts == null ? null : UUID.randomUUID().toString();
    }

    /** Starts writing the cycle's attempts (none, or the log off: {@link AttemptWrite#NONE}). */
    AttemptWrite write(String cycleId, List<Attempt> attempted, Instant now) {
        if (attempts == null || attempted.isEmpty()) {
            return AttemptWrite.NONE;
        }
        return new AttemptWrite(cycleId, writer.submit(() -> attempts.attempted(cycleId, attempted, now)));
    }

    /**
     * The batch was not confirmed: the cycle's attempts, if they committed, read as FAILED with {@code e}, or as
     * OUTCOME_UNKNOWN (may have delivered) when a commit of it failed without the broker's answer.
     */
    void notConfirmed(RelayCycle c, AttemptWrite write, RuntimeException e) {
        if (write.recorded()) {
            c.logged = write.cycle();
        }
        c.brokerAnswer = e instanceof PublishException p && p.outcomeUnknown()
                ? new BrokerAnswer(Map.of(), Observation.OUTCOME_UNKNOWN, "the broker's commit failed without an"
                        + " answer, it may have stored the batch: " + Failures.describe(e))
                : new BrokerAnswer(Map.of(), Observation.FAILED, Failures.describe(e));
    }

    /** The broker answered the batch: its answers other than a plain confirmation, by row key. */
    void answered(RelayCycle c, AttemptWrite write, PublishResult result, List<OutboundEvent> unexplained) {
        c.logged = write.cycle();
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
        c.brokerAnswer = new BrokerAnswer(answers, Observation.CONFIRMED, result.resentAfterUnknownOutcome()
                ? "sent again on a new connection after a commit whose outcome was unknown; the broker already held "
                        + result.duplicates().size() + " of its events" : null);
    }

    /**
     * In the cycle's transaction, after its mark: the cycle's finish, where the log shares the cycle's database (see
     * {@link AttemptLog#finishInCycle}); a failure fails the cycle.
     */
    void finishInCycle(RelayCycle c, List<String> parkedKeys) {
        if (attempts != null && c.logged != null) {
            attempts.finishInCycle(c.logged, c.brokerAnswer, parkedKeys);
        }
    }

    /**
     * The cycle's transaction ended ({@code committed} or rolled back): writes its broker answer with the mark state,
     * when its attempts are in the log and the cycle's transaction did not commit it.
     */
    void finished(RelayCycle c, boolean committed, List<String> parkedKeys) {
        String logged = c.logged;
        BrokerAnswer answer = c.brokerAnswer;
        record(() -> attempts.finished(logged, answer, committed, parkedKeys), logged);
    }

    private void record(Runnable write, String cycleId) {
        if (attempts == null || cycleId == null) {
            return;
        }
        try {
            write.run();
        } catch (RuntimeException e) {
            log.warn("Relay '{}': could not complete the attempt log of cycle {} (its attempts read as sent, outcome"
                    + " unknown): {}", relay, cycleId, Failures.describe(e));
        }
    }

    @Override
    public void close() {
        writer.shutdown();
    }

    /**
     * A cycle's attempt-log write, running on the relay's log thread while the batch is sent ({@link #NONE}: nothing
     * to write; its cycle is {@code null}).
     */
    record AttemptWrite(String cycle, Future<?> write) {
        static final AttemptWrite NONE = new AttemptWrite(null, CompletableFuture.completedFuture(null));

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
}
