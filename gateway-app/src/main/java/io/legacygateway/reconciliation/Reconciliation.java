package io.legacygateway.reconciliation;

import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.AGGREGATE_ID;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.AGGREGATE_TYPE;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.legacygateway.adapters.domain.DomainRows;
import io.legacygateway.adapters.outbox.attempts.Attempt;
import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.outbox.FailedRow;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.config.DurationText;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.operator.ApiErrors;
import io.legacygateway.reconciliation.IntentFacts.DomainState;
import io.legacygateway.reconciliation.IntentFacts.OutboxState;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.relay.RelaySettings;
import io.legacygateway.transactions.InDoubtTransactions;
import io.legacygateway.transactions.TransactionMode;
import io.legacygateway.transactions.XaTransactions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The reconciliation report over each relay's outbox: which intents are stuck, which may have been delivered twice,
 * which domain rows have no intent, and (on request) which were published once. Read-only: it never changes a row, and
 * never declares a stuck intent successful.
 *
 * <p>What a report covers, per relay: the first {@code limit} waiting rows and FAILED rows of the outbox; rows with
 * repeated attempts, or with a duplicate the relay cannot explain, in the attempt log within {@code window}; with
 * {@code includeCommitted}, rows published within the window; and, where a {@code domainTable} is configured, its
 * rows without an intent; once a relay runs XA, this node's transactions in doubt ({@link InDoubtTransactions}, a
 * finding once older than {@code stuckAfter}). An empty report means only that this query found nothing.
 */
public class Reconciliation {

    static final String EMPTY = "No intent needs attention: this means only that this query (the scope above) found"
            + " nothing; it proves nothing about what consumers received or applied.";

    private final GatewayProperties.Reconciliation settings;
    private final OutboxRelayFactory relays;
    private final GatewayDataSources dataSources;
    private final Clock clock;
    private final IntentClassifier classifier;
    private final XaTransactions xa;

    public Reconciliation(GatewayProperties properties, OutboxRelayFactory relays, GatewayDataSources dataSources,
                          Clock clock, XaTransactions xa) {
        this.xa = xa;
        this.settings = properties.reconciliation();
        this.relays = relays;
        this.dataSources = dataSources;
        this.clock = clock;
        this.classifier = new IntentClassifier(settings.stuckAfter(), settings.stuckAttempts());
    }

    /** A report's answer; {@code inDoubt} is {@code null} while no relay runs XA. */
    public record Report(Instant generatedAt, String scope, Map<ReconciliationDecision, Integer> counts,
                         List<IntentEvidence> intents, List<String> notes, InDoubtTransactions inDoubt,
                         Duration stuckAfter) {

        /** The report as an operator reads it: scope, counts, each evidence record, notes. */
        public String render() {
            StringBuilder out = new StringBuilder("Reconciliation report at ").append(generatedAt).append('\n')
                    .append("Scope: ").append(scope).append('\n').append("Counts:");
            counts.forEach((d, n) -> out.append(' ').append(d).append('=').append(n));
            out.append('\n');
            for (IntentEvidence e : intents) {
                out.append("\n[").append(e.relay()).append("]\n").append(e.render()).append('\n');
            }
            if (inDoubt != null) {
                out.append('\n').append(inDoubt.render(generatedAt));
            }
            notes.forEach(n -> out.append("\nNote: ").append(n));
            return out.append('\n').toString();
        }

        /** Whether an intent needs attention (any decision but DOMAIN_AND_INTENT_COMMITTED) or stays in doubt. */
        @JsonProperty(value = "findings", access = JsonProperty.Access.READ_ONLY)
        public boolean findings() {
            return counts.entrySet().stream().anyMatch(e -> e.getKey()
                    != ReconciliationDecision.DOMAIN_AND_INTENT_COMMITTED && e.getValue() > 0)
                    || inDoubt != null && inDoubt.anyOlderThan(stuckAfter, generatedAt);
        }
    }

    /**
     * @param relay            one relay's name, or {@code null} for every relay
     * @param includeCommitted also list intents whose decision is DOMAIN_AND_INTENT_COMMITTED (they are always counted)
     * @param intentId         only this intent (event id), or {@code null}
     * @throws ApiErrors.NotFound for an unknown relay
     */
    public Report report(String relay, boolean includeCommitted, String intentId) {
        List<OutboxRelay> selected = relay == null || relay.isBlank() ? relays.relays()
                : List.of(relays.relay(relay).orElseThrow(() -> new ApiErrors.NotFound("no relay '" + relay
                        + "' (relays: " + relays.relays().stream().map(OutboxRelay::name).toList() + ")")));
        Instant now = clock.instant();
        Map<ReconciliationDecision, Integer> counts = new EnumMap<>(ReconciliationDecision.class);
        for (ReconciliationDecision d : ReconciliationDecision.values()) {
            counts.put(d, 0);
        }
        List<IntentEvidence> listed = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (OutboxRelay r : selected) {
            for (IntentEvidence e : evidence(r, includeCommitted || intentId != null, now, notes)) {
                if (intentId != null && !intentId.equals(e.intentId())) {
                    continue;
                }
                counts.merge(e.reconciliationDecision(), 1, Integer::sum);
                if (includeCommitted || intentId != null
                        || e.reconciliationDecision() != ReconciliationDecision.DOMAIN_AND_INTENT_COMMITTED) {
                    listed.add(e);
                }
            }
        }
        if (selected.isEmpty()) {
            notes.add("No relay runs in this gateway.");
        }
        if (listed.stream().noneMatch(e -> e.reconciliationDecision()
                != ReconciliationDecision.DOMAIN_AND_INTENT_COMMITTED)) {
            notes.add(EMPTY);
        }
        String scope = "relays " + selected.stream().map(OutboxRelay::name).toList() + ": the first "
                + settings.limit() + " waiting and FAILED rows of each outbox; attempts of the last "
                + DurationText.format(settings.window()) + " in the attempt log (repeated deliveries, unexplained"
                + " broker duplicates" + (includeCommitted ? ", publications" : "") + "); domain rows without an intent"
                + " where a domainTable is configured. Stuck: waiting longer than "
                + DurationText.format(settings.stuckAfter()) + ", or " + settings.stuckAttempts()
                + " attempts, or FAILED" + (intentId == null ? "" : ". Only intent " + intentId);
        return new Report(now, scope, counts, listed, notes, xa.listInDoubt(), settings.stuckAfter());
    }

    private List<IntentEvidence> evidence(OutboxRelay relay, boolean published, Instant now, List<String> notes) {
        int limit = settings.limit();
        AttemptLog log = relay.attempts();
        OutboxRows outbox = outboxRows(relay, limit, notes);
        if (log == null) {
            notes.add("relay " + relay.name() + ": attemptLog is off, so duplicate deliveries cannot be told and"
                    + " published intents are not listed");
        }
        if (relay.settings().transactionMode() == TransactionMode.XA) {
            notes.add("relay " + relay.name() + ": transactionMode XA (the broker's copy and the mark commit in one"
                    + " global transaction; the attempt log's cycles record their mode in transaction_mode)");
        }
        Set<String> keys = new LinkedHashSet<>(outbox.rows().keySet());
        keys.addAll(logged(log, now, published, limit));
        RelaySettings.DomainTable domain = relay.settings().domain();
        String domainName = domain == null ? null : domain.table().toString();
        List<IntentFacts> all = facts(relay, keys, outbox, log, domainName);
        Map<String, DomainState> domainStates = domain == null ? Map.of() : domainStates(relay, all);
        List<IntentEvidence> out = new ArrayList<>();
        for (IntentFacts f : all) {
            DomainState d = domain == null ? DomainState.NOT_CHECKED
                    : domainStates.getOrDefault(f.rowKey(), DomainState.NOT_CHECKED);
            out.add(classifier.classify(new IntentFacts(f.relay(), f.rowKey(), f.eventId(), f.aggregateKey(), d,
                    domainName, f.outbox(), f.createdAt(), f.attemptsOnRow(), f.lastError(), f.attemptLogOn(),
                    f.attempts()), now));
        }
        if (domain != null) {
            for (String key : gaps(relay, domain, limit)) {
                out.add(classifier.classify(new IntentFacts(relay.name(), null, null,
                        (domain.aggregateType().isBlank() ? "" : domain.aggregateType() + ":") + key,
                        DomainState.COMMITTED, domainName, OutboxState.MISSING, null, 0, null, log != null,
                        List.of()), now));
            }
        }
        return out;
    }

    /** The outbox's waiting and FAILED rows by row key, with their state and (FAILED) reason. */
    private record OutboxRows(Map<String, OutboxRow> rows, Map<String, OutboxState> states,
                              Map<String, String> errors) {
    }

    /** The first {@code limit} waiting and FAILED rows; notes when there are more. */
    private static OutboxRows outboxRows(OutboxRelay relay, int limit, List<String> notes) {
        List<OutboxRow> waiting = relay.source().waiting(limit);
        List<FailedRow> failed = relay.source().failed(limit);
        if (waiting.size() == limit) {
            notes.add("relay " + relay.name() + ": listed the first " + limit + " waiting rows; more wait (see the"
                    + " gateway_outbox_pending gauge)");
        }
        if (failed.size() == limit) {
            notes.add("relay " + relay.name() + ": listed the first " + limit + " FAILED rows; more are parked");
        }
        OutboxRows out = new OutboxRows(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
        for (OutboxRow row : waiting) {
            out.rows().put(row.keyText(), row);
            out.states().put(row.keyText(), row.retryCount() > 0 ? OutboxState.RETRYING : OutboxState.PENDING);
        }
        for (FailedRow f : failed) {
            out.rows().put(f.row().keyText(), f.row());
            out.states().put(f.row().keyText(), OutboxState.FAILED);
            out.errors().put(f.row().keyText(), f.reason());
        }
        return out;
    }

    /** Row keys the attempt log names within the window: repeated, unexplained duplicates, (on request) published. */
    private Set<String> logged(AttemptLog log, Instant now, boolean published, int limit) {
        Set<String> fromLog = new HashSet<>();
        if (log != null) {
            Instant since = now.minus(settings.window());
            fromLog.addAll(log.repeated(since, limit));
            fromLog.addAll(log.duplicates(since, limit));
            if (published) {
                fromLog.addAll(log.published(since, limit));
            }
        }
        return fromLog;
    }

    /** The facts of each key: from its outbox row, else (published) from its last recorded attempt. */
    private static List<IntentFacts> facts(OutboxRelay relay, Set<String> keys, OutboxRows outbox, AttemptLog log,
                                           String domainName) {
        Map<String, List<AttemptLog.Entry>> attempts = log == null ? Map.of() : log.attempts(keys);
        List<IntentFacts> all = new ArrayList<>();
        for (String key : keys) {
            OutboxRow row = outbox.rows().get(key);
            List<AttemptLog.Entry> tried = attempts.getOrDefault(key, List.of());
            if (row != null) {
                all.add(new IntentFacts(relay.name(), key, row.eventId(), Attempt.aggregateKey(row), null,
                        domainName, outbox.states().get(key), row.createdAt() != null ? row.createdAt()
                        : row.occurredAt(), row.retryCount(), outbox.errors().get(key), log != null, tried));
            } else if (!tried.isEmpty()) {
                AttemptLog.Entry last = tried.get(tried.size() - 1);
                // not waiting and not FAILED in the outbox: published (the log says by which cycle)
                all.add(new IntentFacts(relay.name(), key, last.eventId(), last.aggregateKey(), null, domainName,
                        OutboxState.PUBLISHED, null, 0, null, true, tried));
            }
        }
        return all;
    }

    /** Whether each intent's domain row exists, by row key (intents of another aggregate type are not checked). */
    private Map<String, DomainState> domainStates(OutboxRelay relay, List<IntentFacts> facts) {
        RelaySettings.DomainTable domain = relay.settings().domain();
        Map<String, String> idByKey = new LinkedHashMap<>();
        for (IntentFacts f : facts) {
            String aggregate = f.aggregateKey();
            if (aggregate == null) {
                continue;
            }
            String prefix = domain.aggregateType().isBlank() ? null : domain.aggregateType() + ":";
            if (prefix != null && !aggregate.startsWith(prefix)) {
                continue;
            }
            idByKey.put(f.rowKey(), prefix != null ? aggregate.substring(prefix.length())
                    : aggregate.substring(aggregate.indexOf(':') + 1));
        }
        if (idByKey.isEmpty()) {
            return Map.of();
        }
        Set<String> present = existing(relay, domain, new HashSet<>(idByKey.values()));
        Map<String, DomainState> states = new LinkedHashMap<>();
        idByKey.forEach((key, id) -> states.put(key, present.contains(id) ? DomainState.COMMITTED
                : DomainState.NOT_FOUND));
        return states;
    }

    private Set<String> existing(OutboxRelay relay, RelaySettings.DomainTable domain, Collection<String> ids) {
        String dataSource = relay.settings().dataSource();
        return new DomainRows(dataSources.get(dataSource, "dataSource"), dataSources.dialect(dataSource),
                domain.table(), domain.keyColumn()).existing(ids);
    }

    /** Keys (as text) of domain rows without an intent row of their aggregate, at most {@code limit}. */
    private List<String> gaps(OutboxRelay relay, RelaySettings.DomainTable domain, int limit) {
        Dialect dialect = dataSources.dialect(relay.settings().dataSource());
        OutboxMapping mapping = relay.source().mapping();
        if (!mapping.has(AGGREGATE_ID)) {
            return List.of();
        }
        JdbcTemplate jdbc = new JdbcTemplate(dataSources.get(relay.settings().dataSource(), "dataSource"));
        jdbc.setMaxRows(limit);
        boolean byType = !domain.aggregateType().isBlank() && mapping.has(AGGREGATE_TYPE);
        String sql = dialect.sql(byType ? "reconciliation.domainGaps.ofType" : "reconciliation.domainGaps", Map.of(
                "domain", dialect.quote(domain.table()), "key", dialect.quote(domain.keyColumn()),
                "outbox", dialect.quote(mapping.table().name()),
                "aggregateId", dialect.quote(mapping.column(AGGREGATE_ID)),
                "aggregateType", byType ? dialect.quote(mapping.column(AGGREGATE_TYPE)) : ""));
        return byType ? jdbc.queryForList(sql, String.class, domain.aggregateType())
                : jdbc.queryForList(sql, String.class);
    }
}
