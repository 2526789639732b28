package io.legacygateway.relay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.adapters.outbox.FailedRow;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.config.DurationText;
import io.legacygateway.operator.ApiErrors;
import io.legacygateway.operator.OperationAudit;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator can see of the relays and do with their FAILED rows, behind the REST API
 * and JMX ({@link RelayOperatorSurface}) and the {@code relay} command.
 *
 * <p>A retry makes FAILED rows due now with a fresh budget of attempts ({@code maxAttempts}); the relay publishes them
 * on its next poll, in outbox order, followed by any rows of their aggregates that waited behind them. Every retry and
 * every dry run is recorded by {@link OperationAudit}; the row changes and the audit row are written in one transaction
 * when the audit table lives in the relay's datasource.
 */
public class RelayOperations {

    private static final Logger log = LoggerFactory.getLogger(RelayOperations.class);

    /** How many FAILED rows a listing or a filtered retry looks at, in outbox order. */
    public static final int SCAN_LIMIT = 10_000;
    /** Largest page of a listing. */
    public static final int MAX_LIMIT = 1000;

    private final OutboxRelayFactory relays;
    private final OperationAudit audit;
    private final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    public RelayOperations(OutboxRelayFactory relays, OperationAudit audit) {
        this.relays = relays;
        this.audit = audit;
    }

    /** A relay as listed: its settings and its last backlog sample ({@code null} counts before the first). */
    public record RelayView(String relay, String dataSource, String table, String markMode, String destination,
                            int maxAttempts, String retryBackoff, String maxRetryBackoff, String failedRowPolicy,
                            String retention, Long pending, Long failed, Instant oldestPending) {
    }

    /** A FAILED row as listed. {@code key} is what a retry by id takes. */
    public record FailedRowView(String key, String eventId, String aggregateType, String aggregateId,
                                String eventType, Instant time, int attempts, String reason, Instant failedAt) {
    }

    /**
     * Which FAILED rows: every given criterion must match. {@code eventType} and {@code aggregateId} exactly,
     * {@code from} (inclusive) and {@code to} (exclusive) on the event's time (occurred-at, else created-at),
     * {@code reason} as a case-insensitive part of the last error.
     */
    public record Filter(String eventType, String aggregateId, Instant from, Instant to, String reason) {

        public static Filter parse(String eventType, String aggregateId, String from, String to, String reason) {
            return new Filter(blankToNull(eventType), blankToNull(aggregateId), instant("from", from),
                    instant("to", to), blankToNull(reason));
        }

        boolean empty() {
            return eventType == null && aggregateId == null && from == null && to == null && reason == null;
        }

        boolean matches(FailedRow failed) {
            OutboxRow row = failed.row();
            Instant time = row.occurredAt() != null ? row.occurredAt() : row.createdAt();
            return (eventType == null || eventType.equals(row.eventType()))
                    && (aggregateId == null || aggregateId.equals(row.aggregateId()))
                    && (from == null || (time != null && !time.isBefore(from)))
                    && (to == null || (time != null && time.isBefore(to)))
                    && (reason == null || (failed.reason() != null && failed.reason().toLowerCase(Locale.ROOT)
                            .contains(reason.toLowerCase(Locale.ROOT))));
        }
    }

    /**
     * A retry: either {@code ids} (row keys as listed) or a filter ({@code all: true} for every FAILED row);
     * {@code dryRun} reports what would be retried and changes nothing.
     */
    public record RetryRequest(List<String> ids, String eventType, String aggregateId, String from, String to,
                               String reason, Boolean all, Boolean dryRun) {

        boolean dry() {
            return Boolean.TRUE.equals(dryRun);
        }
    }

    /**
     * @param matched  FAILED rows the request selected
     * @param retried  rows made due (0 in a dry run)
     * @param ids      the keys of the matched rows
     * @param notFound ids given that are not FAILED rows of this relay
     */
    public record RetryResult(String relay, boolean dryRun, int matched, int retried, List<String> ids,
                              List<String> notFound) {
    }

    public List<RelayView> relays() {
        return relays.relays().stream().map(RelayOperations::view).toList();
    }

    private static RelayView view(OutboxRelay r) {
        RelaySettings s = r.settings();
        Backlog b = r.backlog();
        return new RelayView(s.relay(), s.dataSource(), s.table().toString(), s.markMode().name(),
                s.destination().toString(), s.retry().maxAttempts(), DurationText.format(s.retry().backoff()),
                DurationText.format(s.retry().maxBackoff()), s.failedRowPolicy().name(),
                s.retention() == null ? "off" : DurationText.format(s.retention()), b == null ? null : b.pending(),
                b == null ? null : b.failed(), b == null ? null : b.oldestPending());
    }

    /** FAILED rows of a relay matching the filter, in outbox order, at most {@code limit}. */
    public List<FailedRowView> failed(String relay, Filter filter, int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit: " + limit + " is outside 1-" + MAX_LIMIT);
        }
        return matching(relay(relay), filter).stream().limit(limit).map(RelayOperations::view).toList();
    }

    private List<FailedRow> matching(OutboxRelay relay, Filter filter) {
        return relay.source().failed(SCAN_LIMIT).stream().filter(filter::matches).toList();
    }

    /** Retries FAILED rows by id or by filter, or (dry run) reports which it would retry; audited either way. */
    public RetryResult retry(String relayName, RetryRequest request) {
        OutboxRelay relay = relay(relayName);
        Objects.requireNonNull(request, "a request body is required");
        boolean byIds = request.ids() != null && !request.ids().isEmpty();
        Filter filter = Filter.parse(request.eventType(), request.aggregateId(), request.from(), request.to(),
                request.reason());
        if (byIds && !filter.empty()) {
            throw new IllegalArgumentException("give either ids or a filter (eventType, aggregateId, from, to, reason),"
                    + " not both");
        }
        if (!byIds && filter.empty() && !Boolean.TRUE.equals(request.all())) {
            throw new IllegalArgumentException("give ids, a filter (eventType, aggregateId, from, to, reason), or"
                    + " all: true");
        }
        String selection = selection(request);
        RetryResult result = relay.transaction().execute(tx -> {
            List<FailedRow> rows;
            List<String> notFound = List.of();
            if (byIds) {
                Set<String> ids = new LinkedHashSet<>(request.ids());
                rows = relay.source().failed(ids);
                Set<String> found = new LinkedHashSet<>();
                rows.forEach(r -> found.add(r.row().keyText()));
                notFound = ids.stream().filter(id -> !found.contains(id)).toList();
            } else {
                rows = matching(relay, filter);
            }
            List<String> keys = rows.stream().map(r -> r.row().keyText()).toList();
            int retried = request.dry() ? 0 : relay.source().retry(rows);
            RetryResult r = new RetryResult(relay.name(), request.dry(), rows.size(), retried, keys, notFound);
            audit.record("relay.retry", relay.name(), selection, request.dry(), request.dry() ? rows.size() : retried,
                    write(Map.of("matched", rows.size(), "retried", retried, "ids", keys, "notFound", notFound)));
            return r;
        });
        log.info("Relay '{}': {} by {}: {} FAILED row(s) matched {}, {} made due", relay.name(),
                request.dry() ? "retry dry run" : "retry", OperationAudit.actor(), result.matched(), selection,
                result.retried());
        return result;
    }

    private OutboxRelay relay(String name) {
        return relays.relay(name).orElseThrow(() -> new ApiErrors.NotFound("no relay '" + name + "' (relays: "
                + relays.relays().stream().map(OutboxRelay::name).toList() + ")"));
    }

    private static FailedRowView view(FailedRow f) {
        OutboxRow r = f.row();
        return new FailedRowView(r.keyText(), r.eventId(), r.aggregateType(), r.aggregateId(), r.eventType(),
                r.occurredAt() != null ? r.occurredAt() : r.createdAt(), f.attempts(), f.reason(), f.failedAt());
    }

    private String selection(RetryRequest request) {
        Map<String, Object> s = new LinkedHashMap<>();
        if (request.ids() != null && !request.ids().isEmpty()) {
            s.put("ids", new ArrayList<>(request.ids()));
        }
        putIfSet(s, "eventType", request.eventType());
        putIfSet(s, "aggregateId", request.aggregateId());
        putIfSet(s, "from", request.from());
        putIfSet(s, "to", request.to());
        putIfSet(s, "reason", request.reason());
        if (Boolean.TRUE.equals(request.all())) {
            s.put("all", true);
        }
        return write(s);
    }

    private static void putIfSet(Map<String, Object> map, String key, String value) {
        if (value != null && !value.isBlank()) {
            map.put(key, value);
        }
    }

    String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static Instant instant(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(value.strip());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(name + ": '" + value + "' is not an ISO-8601 instant such as"
                    + " 2026-11-29T10:00:00Z");
        }
    }
}
