package io.legacygateway.inbox;

import io.legacygateway.envelope.EventEnvelope;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The meters of one inbox consumer, tagged {@code consumer}: the outcomes of its deliveries, its rollbacks, dead
 * letters and database outages, and how long transactions, batches and events took (its upcasts are counted where
 * they run, {@code gateway.inbox.upcast}). Thread-safe (one consumer has several listener threads).
 */
final class InboxMetrics {

    private final String consumer;
    private final MeterRegistry meters;
    private final Clock clock;
    private final Counter applied;
    private final Counter duplicates;
    private final Counter parked;
    private final Counter released;
    private final Counter rollbacks;
    private final Counter unreachable;
    private final Timer transaction;
    private final Timer processing;
    private final Timer lag;

    InboxMetrics(String consumer, MeterRegistry meters, Clock clock) {
        this.consumer = consumer;
        this.meters = meters;
        this.clock = clock;
        applied = counter("gateway.inbox.applied", "Messages whose effect committed");
        duplicates = counter("gateway.inbox.duplicates",
                "Deliveries skipped because the inbox row existed: the effect was applied before");
        parked = counter("gateway.inbox.parked", "Sequence gate: messages stored until the gap before them is filled");
        released = counter("gateway.inbox.released", "Sequence gate: parked messages applied once their turn came");
        rollbacks = counter("gateway.inbox.rollbacks", "JMS session rollbacks (or failed commits), from any cause:"
                + " each returns the session's batch of messages to the broker unacknowledged and uses one of their"
                + " delivery attempts");
        unreachable = counter("gateway.inbox.database.unreachable",
                "Attempts that found the inbox database unreachable (retried in-process)");
        transaction = Timer.builder("gateway.inbox.transaction")
                .description("One inbox database transaction: a batch of deliveries").tag("consumer", consumer)
                .register(meters);
        processing = Timer.builder("gateway.inbox.processing")
                .description("One batch of deliveries handled to their outcomes (applied, duplicate, parked or"
                        + " dead-lettered): receiving the batch, validation, inbox transactions, dead-letter sends")
                .tag("consumer", consumer).register(meters);
        lag = Timer.builder("gateway.inbox.lag")
                .description("From the event's time (CloudEvents time) to its effect's commit")
                .tag("consumer", consumer).register(meters);
    }

    private Counter counter(String name, String description) {
        return Counter.builder(name).description(description).tag("consumer", consumer).register(meters);
    }

    /** Times one inbox database transaction. */
    Timer transaction() {
        return transaction;
    }

    /** {@code gateway_inbox_rollbacks_total}, incremented by the listener container on every rollback. */
    Counter rollbacks() {
        return rollbacks;
    }

    /** A batch was handled to its outcomes, begun at {@code startedNanos} ({@link System#nanoTime}). */
    void processed(long startedNanos) {
        processing.record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
    }

    /** Counts a committed delivery's outcome, and for an applied one its lag. */
    void outcome(EventEnvelope envelope, InboxGuard.Result result) {
        switch (result.outcome()) {
            case APPLIED -> {
                applied.increment(1 + result.released());
                if (envelope.time() != null) {
                    lag.record(Duration.between(envelope.time(), clock.instant()).abs());
                }
                released.increment(result.released());
            }
            case DUPLICATE -> duplicates.increment();
            case PARKED -> parked.increment();
        }
    }

    /** Counts a message moved to the dead-letter queue (one counter per reason, registered at its first use). */
    void deadLettered(DeadLetterReason reason) {
        Counter.builder("gateway.inbox.dead.letters").description("Messages moved to the dead-letter queue")
                .tag("consumer", consumer).tag("reason", reason.name()).register(meters).increment();
    }

    /** Counts an attempt that found the database unreachable. */
    void unreachable() {
        unreachable.increment();
    }
}
