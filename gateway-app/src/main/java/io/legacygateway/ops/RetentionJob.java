package io.legacygateway.ops;

import io.legacygateway.adapters.outbox.store.OutboxStore;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.inbox.InboxConsumer;
import io.legacygateway.inbox.InboxConsumerFactory;
import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes what no longer needs keeping, every {@code gateway.retention.interval}, in bounded batches of
 * {@code gateway.retention.batch-size} rows, each batch its own short transaction (keyed deletes, so no batch holds
 * locks for long or blocks the relays):
 * <ul>
 *   <li>per relay with a {@code retention} parameter: published rows whose publication lies further back (STATUS and
 *       TIMESTAMP mode); waiting and FAILED rows are never deleted;</li>
 *   <li>per inbox consumer: its inbox rows processed longer than {@code gateway.retention.inbox} ago (startup has
 *       checked that this outlives the broker's redeliveries and the dead-letter replay horizon);</li>
 *   <li>per relay with an attempt log: attempts older than {@code gateway.reconciliation.attempt-retention}.</li>
 * </ul>
 * A failure (database unreachable) is counted and logged; the next run goes on where this one stopped.
 */
public class RetentionJob extends PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

    private final GatewayProperties.Retention settings;
    private final OutboxRelayFactory relays;
    private final InboxConsumerFactory consumers;
    private final MeterRegistry meters;
    private final Clock clock;
    private final Counter failures;

    private final Duration attemptRetention;

    public RetentionJob(GatewayProperties properties, OutboxRelayFactory relays, InboxConsumerFactory consumers,
                        MeterRegistry meters, Clock clock, boolean command) {
        super("gateway-retention", shorter(properties.retention().interval(), Duration.ofMinutes(1)),
                properties.retention().interval(), !command);
        this.settings = properties.retention();
        this.attemptRetention = properties.reconciliation().attemptRetention();
        this.relays = relays;
        this.consumers = consumers;
        this.meters = meters;
        this.clock = clock;
        this.failures = Counter.builder("gateway.retention.failures")
                .description("Retention runs of a relay or consumer that failed (retried at the next interval)")
                .register(meters);
    }

    /** What one run deleted. */
    public record Run(int outboxRows, int inboxRows, int attempts) {
    }

    /** Runs retention once, now, for every relay and consumer. */
    public Run runOnce() {
        int outbox = 0;
        int inbox = 0;
        for (OutboxRelay relay : relays.relays()) {
            Duration keep = relay.settings().retention();
            if (keep != null && relay.source() instanceof OutboxStore store && store.keepsPublishedRows()) {
                Instant cutoff = clock.instant().minus(keep);
                outbox += purge("outbox", relay.name(), relay.transaction(),
                        () -> store.deletePublishedBefore(cutoff, settings.batchSize()));
            }
        }
        Instant inboxCutoff = clock.instant().minus(settings.inbox());
        for (InboxConsumer consumer : consumers.consumers()) {
            inbox += purge("inbox", consumer.name(), consumer.inboxTransaction(),
                    () -> consumer.inboxStore().deleteProcessedBefore(consumer.name(), inboxCutoff,
                            settings.batchSize()));
        }
        int attempts = 0;
        Instant attemptCutoff = clock.instant().minus(attemptRetention);
        for (OutboxRelay relay : relays.relays()) {
            AttemptLog log = relay.attempts();
            if (log != null) {
                // each batch commits on its own (AttemptLog), so this runs outside any transaction
                attempts += purge("attempt-log", relay.name(), null,
                        () -> log.deleteBefore(attemptCutoff, settings.batchSize()));
            }
        }
        return new Run(outbox, inbox, attempts);
    }

    /**
     * @param kind  what is deleted: {@code outbox} (a relay's published rows), {@code inbox} (a consumer's inbox rows)
     *              or {@code attempt-log} (a relay's attempts)
     * @param owner the relay or consumer
     */
    private int purge(String kind, String owner, TransactionTemplate transaction, IntSupplier batch) {
        // one set of tag keys for every series of the name: Prometheus drops the series of any other set
        Counter deleted = Counter.builder("gateway.retention.deleted")
                .description("Rows deleted by retention, by kind (outbox, inbox, attempt-log) and owner (the relay"
                        + " or consumer)").tag("kind", kind).tag("owner", owner).register(meters);
        int total = 0;
        try {
            int n;
            do {
                n = transaction == null ? batch.getAsInt()
                        : Objects.requireNonNull(transaction.execute(tx -> batch.getAsInt()));
                total += n;
                deleted.increment(n);
            } while (n == settings.batchSize() && !stopping());
            if (total > 0) {
                log.info("Retention: deleted {} old {} row(s) of '{}'", total, kind, owner);
            }
        } catch (RuntimeException e) {
            failures.increment();
            log.warn("Retention of {} rows of '{}' stopped after {} row(s), retried in {}: {}", kind, owner, total,
                    settings.interval(), e.toString());
        }
        return total;
    }

    @Override
    protected void tick() {
        runOnce();
    }
}
