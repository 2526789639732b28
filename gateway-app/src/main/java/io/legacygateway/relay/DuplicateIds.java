package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.outbox.attempts.MarkState;
import io.legacygateway.adapters.outbox.attempts.Observation;
import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.ValueTemplate;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's duplicate-detection id of an event ({@code _AMQ_DUPL_ID}) and what the relay makes of a duplicate the
 * broker reports.
 *
 * <p>The id is {@code <event id>|sha256:<digest>}, the digest being the first 128 bits (32 hex digits) of the SHA-256
 * of the envelope exactly as published (the message body). Everything in the envelope comes from the row and the
 * relay's configuration ({@code time} is the row's occurred-at, else created-at, never the time of sending), so a
 * resend of the same row carries the same id and the broker drops it while the id is in its cache; a different event
 * that reuses an event id (keys that start again, a reloaded table, two tables with colliding id templates) differs in
 * its content and gets through. With 128 bits, two different envelopes of one event id sharing a digest is negligible
 * (about 2<sup>-64</sup> even for 2<sup>32</sup> contents of the same id).
 *
 * <p>Not deduplicated by the broker: a resend whose envelope changed in between (the row was updated, or
 * {@code source}, {@code naiveTimestampZone} or the envelope version changed with a new configuration or gateway
 * version, such as the upgrade from versions whose duplicate id was the bare event id); consumers' inboxes, keyed by
 * event id, absorb those. Conversely two rows with the same event id and the
 * very same envelope are one event to the broker.
 *
 * <p>A broker duplicate therefore means that the broker already held this very content under this id. The relay has a
 * <em>record of sending</em> it when its attempt log holds an earlier attempt at the same row and event id that may
 * have reached the broker and was not marked published: the crash (or rollback, or failed mark) between publish and
 * mark, which the broker is there to absorb, and a commit whose outcome was unknown (the connection lost during it,
 * the broker killed, a failover: {@link Observation#OUTCOME_UNKNOWN}); also, log or not, the resend of a
 * batch in the same cycle after such a commit ({@link PublishResult#resentAfterUnknownOutcome()}). Any other duplicate is <em>unexplained</em>: an earlier attempt marked
 * published means that row was done and this is a new row with identical content (a restored or reloaded outbox),
 * no attempt at all means another relay or table produced it, or the attempts were pruned by retention, or the attempt
 * log is off (then every duplicate is unexplained, the relay keeping no record across restarts). Unexplained duplicates
 * are counted ({@code gateway_outbox_duplicate_ids_total}), logged at WARN with the id and recorded as
 * {@link Observation#DUPLICATE}, which the reconciliation reports as its own decision. The row is marked
 * published either way: the broker holds the event.
 */
final class DuplicateIds {

    private static final Logger log = LoggerFactory.getLogger(DuplicateIds.class);
    private static final int DIGEST_BYTES = 16;

    private final String relay;
    private final AttemptLog attempts;
    private final Counter unexplained;

    DuplicateIds(String relay, AttemptLog attempts, MeterRegistry meters) {
        this.relay = relay;
        this.attempts = attempts;
        this.unexplained = Counter.builder("gateway.outbox.duplicate.ids")
                .description("Events the broker dropped as duplicates that the relay has no record of sending")
                .tag("relay", relay).register(meters);
    }

    /**
     * The duplicate-detection id of this event: event id and a digest of its envelope as published. Each call looks up
     * a digest; a publisher uses its own {@link Digest}.
     */
    static String of(OutboundEvent e) {
        return new Digest().of(e);
    }

    /**
     * Computes duplicate-detection ids with one SHA-256 digest, reset by each id. Not thread-safe: one per publisher,
     * whose relay sends one batch at a time (a digest per thread cost a thread-local lookup per event, which a flight
     * recording of the relay showed in 5 % of its thread's samples).
     */
    static final class Digest {
        private final MessageDigest sha256;

        Digest() {
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException impossible) {
                throw new IllegalStateException(impossible);
            }
        }

        /** See {@link DuplicateIds#of}. */
        String of(OutboundEvent e) {
            byte[] digest = sha256.digest(e.json().getBytes(StandardCharsets.UTF_8));
            return e.envelope().id() + "|sha256:" + HexFormat.of().formatHex(digest, 0, DIGEST_BYTES);
        }
    }

    /**
     * The {@code eventId} template when it makes the event id from the row key alone (with constant text, the table
     * name, or values that are themselves the same for every row), else {@code null}: such ids repeat when the keys
     * start again.
     */
    static ValueTemplate keyOnlyEventId(OutboxMapping mapping) {
        ValueTemplate id = mapping.values().get(OutboxColumn.EVENT_ID);
        return id != null && id.placeholders().contains("key") && id.placeholders().stream()
                .allMatch(p -> p.equals("key") || sameForEveryRow(mapping, p)) ? id : null;
    }

    private static boolean sameForEveryRow(OutboxMapping mapping, String placeholder) {
        OutboxColumn column = switch (placeholder) {
            case "table" -> null;
            case "aggregateType" -> OutboxColumn.AGGREGATE_TYPE;
            case "eventType" -> OutboxColumn.EVENT_TYPE;
            default -> OutboxColumn.KEY; // the key, the aggregate id: always from the row
        };
        if (column == null) {
            return true;
        }
        ValueTemplate given = mapping.values().get(column);
        return given != null && given.placeholders().stream().allMatch(p -> sameForEveryRow(mapping, p));
    }

    /**
     * Of the events the broker reported as duplicates in this cycle, those the relay has no record of sending (see
     * the class comment); counted and logged here, once per row while the attempt log holds the finding. None when the
     * batch was sent again in this cycle after a commit of it whose outcome was unknown: that commit explains them,
     * attempt log or not.
     *
     * @param cycle this cycle's id in the attempt log ({@code null} when nothing is logged)
     */
    List<OutboundEvent> unexplained(String cycle, PublishResult result) {
        List<OutboundEvent> duplicates = result.duplicates();
        if (duplicates.isEmpty() || result.resentAfterUnknownOutcome()) {
            return List.of();
        }
        Map<String, List<AttemptLog.Entry>> earlier;
        try {
            earlier = attempts == null || cycle == null ? Map.of()
                    : attempts.attempts(duplicates.stream().map(e -> e.row().keyText()).toList());
        } catch (RuntimeException e) {
            log.warn("Relay '{}': could not read the attempt log to explain {} duplicate(s) the broker reported;"
                    + " not counted: {}", relay, duplicates.size(), e.toString());
            return List.of();
        }
        List<OutboundEvent> found = new ArrayList<>();
        for (OutboundEvent e : duplicates) {
            List<AttemptLog.Entry> before = earlier.getOrDefault(e.row().keyText(), List.of()).stream()
                    .filter(a -> !a.cycle().equals(cycle) && Objects.equals(a.eventId(), e.row().eventId()))
                    .toList();
            if (before.stream().anyMatch(a -> a.observation().mayHaveDelivered()
                    && a.markState() != MarkState.PUBLISHED)) {
                continue; // a resend after a crash, rollback or failed mark: what the broker's detection is for
            }
            found.add(e);
            if (before.stream().anyMatch(a -> a.observation() == Observation.DUPLICATE)) {
                continue; // counted and logged when first seen
            }
            unexplained.increment();
            log.warn("Relay '{}': the broker dropped event {} (row {}, duplicate id {}) as a duplicate, and this relay"
                    + " has no record of sending it{}: the broker already held an event with this id and this very"
                    + " content, which consumers got instead; the row is marked published. Check where the earlier"
                    + " one came from (a restored or reloaded outbox, another relay or table, pruned attempts)",
                    relay, e.row().eventId(), e.row().keyText(), of(e),
                    attempts == null ? " (attemptLog is off: no record is kept, a resend after a crash looks the same)"
                            : "");
        }
        return found;
    }
}
