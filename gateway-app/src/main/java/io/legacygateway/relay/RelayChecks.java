package io.legacygateway.relay;

import io.legacygateway.adapters.capture.NotifyTrigger;
import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.ValueTemplate;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.config.DurationText;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;

/**
 * The checks {@link OutboxRelayFactory} makes of a relay's settings against its database and table, and the line it
 * logs for each relay it created.
 */
final class RelayChecks {

    private static final Logger log = RelayLog.STARTUP;

    private RelayChecks() {
    }

    /** {@code wakeUp: NOTIFY} needs LISTEN/NOTIFY and a table whose name makes a channel. */
    static void requireWakeUp(RelaySettings s, Dialect dialect) {
        if (s.wakeUp() == WakeUp.NOTIFY) {
            if (!dialect.has("wakeUp.listen")) {
                throw new IllegalArgumentException(RelaySettings.label(s.relay(), "wakeUp") + ": NOTIFY needs"
                        + " LISTEN/NOTIFY, which only PostgreSQL offers; datasource '" + s.dataSource() + "' is "
                        + dialect.id() + ". Use NONE (and a shorter pollInterval for a lower latency)");
            }
            NotifyTrigger.channel(RelaySettings.label(s.relay(), "table"), s.table());
        }
    }

    static void warnIfKeyOnlyEventId(OutboxMapping mapping, UnaryOperator<String> label) {
        ValueTemplate keyOnly = DuplicateIds.keyOnlyEventId(mapping);
        if (keyOnly != null) {
            log.warn("{} is '{}': the event id comes from the row key alone, so new rows get ids used before when the"
                    + " keys start again (a sequence reset, a truncated, reloaded or restored table). The broker still"
                    + " takes such events (its duplicate id includes a digest of the content), but consumers' inboxes"
                    + " deduplicate by event id and skip them as already applied. Prefer an event id column, or a"
                    + " template with a value unique per event", label.apply("eventId"), keyOnly);
        }
    }

    /**
     * The values the relay itself writes besides the status values ({@link OutboxMapping#resolve} checks those): its
     * instance name into the locked-by column, attempt counts up to {@code maxAttempts} into the retry-count column.
     */
    static void requireMarkValuesFit(OutboxMapping mapping, String instance, RelaySettings s,
                                             UnaryOperator<String> label) {
        if (mapping.has(OutboxColumn.LOCKED_BY)) {
            mapping.requireFits(OutboxColumn.LOCKED_BY, OutboxColumn.LOCKED_BY.parameter(), instance,
                    "the relay writes '" + instance + "' (relay@host:pid), which", label);
        }
        if (mapping.has(OutboxColumn.RETRY_COUNT)) {
            String max = String.valueOf(s.retry().maxAttempts());
            mapping.requireFits(OutboxColumn.RETRY_COUNT, "maxAttempts", max, max + " attempts", label);
        }
    }

    /** The relay's one line at startup: what it reads, how it marks, where it publishes, what shapes its events. */
    static void logCreated(RelaySettings s, Dialect dialect, TableInspector.Table table,
                                   UnaryOperator<String> label) {
        log.info("Outbox relay '{}': {} table {} ({}) -> {} (batch {}, poll {}, {} attempt(s), FAILED rows: {},"
                        + " retention {}, attempt log {}, wake-up {}, transactions {}, steps {}){}", s.relay(), dialect.id(),
                table.name(), s.markMode(), s.destination(), s.batchSize(), s.pollInterval(), s.retry().maxAttempts(),
                s.failedRowPolicy(), s.retention() == null ? "off" : DurationText.format(s.retention()),
                s.attemptLog() ? "on" : "off",
                s.wakeUp() == WakeUp.NONE ? "none"
                        : "NOTIFY on channel " + NotifyTrigger.channel(label.apply("table"), s.table()),
                s.transactionMode(), steps(s.steps()), dialect.testedHere() ? "" : " [dialect NOT tested by this project]");
    }

    private static String steps(StepSettings steps) {
        if (steps.none()) {
            return "none";
        }
        StringBuilder b = new StringBuilder();
        if (steps.filter() != null) {
            b.append("filter ").append(steps.filter());
        }
        if (steps.transform() != null) {
            b.append(b.isEmpty() ? "" : ", ").append("transform ").append(steps.transform());
        }
        if (steps.route() != null) {
            b.append(b.isEmpty() ? "" : ", ").append("steps ").append(steps.route());
        }
        return b.toString();
    }
}
