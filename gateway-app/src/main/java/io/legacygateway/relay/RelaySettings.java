package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.outbox.zerowrite.ZeroWriteReader;
import io.legacygateway.adapters.sql.SqlIdentifier;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.config.TemplateParameters;
import io.legacygateway.transactions.TransactionMode;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The settings of one {@code outbox-relay} route: its {@link RelayParameters} with what follows from them and from
 * the configuration (the datasource, the source, the parsed table and destination). Every error names the parameter.
 *
 * @param relay        relay name: route id suffix, metric tag, {@code locked_by} value
 * @param dataSource   name under {@code gateway.datasources}
 * @param table        outbox table, optionally schema-qualified
 * @param columns      configured column names and values by parameter name (unset ones take the defaults)
 * @param destination  where events go
 * @param source       CloudEvents source
 * @param batchSize    rows per claim and per broker transaction
 * @param pollInterval pause between polls once the table is drained
 * @param maxBackoff   longest pause after repeated failures
 * @param markMode     how published rows are recorded
 * @param stateDataSource datasource of the gateway's own tables for this relay (position, rejections)
 * @param startFrom    where a new ZERO_WRITE relay starts
 * @param settleTime   ZERO_WRITE on MariaDB: margin below the oldest transaction's start
 * @param naiveTimestampZone zone of timestamp columns without time zone
 * @param retry        attempts at a row before it is parked as FAILED, and the waits between them
 * @param failedRowPolicy whether a FAILED row holds back the later rows of its aggregate
 * @param retention    how long published rows are kept before they are deleted; {@code null} when off
 * @param attemptLog   whether every attempt is recorded in {@code gateway_outbox_attempt} (the reconciliation's facts)
 * @param domain       the business table whose rows must each have an intent in this outbox, {@code null} when unknown
 * @param wakeUp       what runs a cycle besides the timer
 * @param transactionMode whether a cycle is two local transactions or one global (XA) transaction
 * @param steps        what shapes each event before it is published ({@link StepSettings}, {@link RelaySteps})
 * @param maxPayloadBytes largest payload published, in bytes of UTF-8; a longer one rejects its row
 * @param maxBatchBytes payload bytes one batch publishes at most (its first row always goes)
 * @param publishTimeout longest time a batch's sends and broker commit may take before the cycle is an outage
 * @param claimLease   how long the database lets a cycle's session stay idle in its transaction before it ends it
 *                     (where the dialect has a lease), and how long after its last statement the cycle still commits
 *                     its batch on the broker; longer than {@code publishTimeout}
 */
public record RelaySettings(String relay, String dataSource, TableName table, Map<String, String> columns,
                            String pendingStatus, String publishedStatus, String failedStatus,
                            PayloadFormat payloadFormat, Destination destination, String source, int batchSize,
                            Duration pollInterval, Duration maxBackoff, MarkMode markMode, String stateDataSource,
                            ZeroWriteReader.StartFrom startFrom, Duration settleTime, ZoneId naiveTimestampZone,
                            RetryPolicy retry, FailedRowPolicy failedRowPolicy, Duration retention,
                            boolean attemptLog, DomainTable domain, WakeUp wakeUp,
                            TransactionMode transactionMode, StepSettings steps, long maxPayloadBytes,
                            long maxBatchBytes, Duration publishTimeout, Duration claimLease) {

    /** How a relay's route ids begin: {@code outbox-relay-<relay>} is its timer route, {@code ...-cycle} its cycle. */
    public static final String ROUTE_PREFIX = "outbox-relay-";

    /**
     * The business table behind an outbox (as with trigger capture): a row of it whose key has no outbox row with
     * {@code aggregate_id} = key (and the aggregate type, when given) is a dual-write gap.
     */
    public record DomainTable(TableName table, String keyColumn, String aggregateType) {
    }

    /** How errors name a parameter: {@code outbox-relay 'orders' parameter 'table'}. */
    public static String label(String relay, String parameter) {
        return "outbox-relay '" + relay + "' parameter '" + parameter + "'";
    }

    /**
     * Every parameter name the template accepts: {@link RelayParameters}' components, one per {@link OutboxColumn},
     * and the values that may replace a column ({@link OutboxColumn#valueParameter()}).
     */
    public static Set<String> parameterNames() {
        Set<String> names = new TreeSet<>();
        TemplateParameters.definitions(RelayParameters.class).forEach(d -> names.add(d.key()));
        Arrays.stream(OutboxColumn.values()).map(OutboxColumn::parameter).forEach(names::add);
        Arrays.stream(OutboxColumn.values()).map(OutboxColumn::valueParameter).filter(Objects::nonNull)
                .forEach(names::add);
        return names;
    }

    /** Finds a configured domain table in its database: the names as it spells them, checked to exist. */
    @FunctionalInterface
    public interface DomainLookup {
        /** Leaves the names as configured. */
        DomainLookup AS_CONFIGURED = (relay, dataSource, configured) -> configured;

        DomainTable stored(String relay, String dataSource, DomainTable configured);
    }

    /** The settings with the domain table as configured; see {@link #parse(Map, String, String, DomainLookup)}. */
    public static RelaySettings parse(Map<String, Object> raw, String defaultSource, String onlyDataSource) {
        return parse(raw, defaultSource, onlyDataSource, DomainLookup.AS_CONFIGURED);
    }

    /**
     * Binds and validates the template parameters ({@link RelayParameters}), then checks what depends on several of
     * them or on the configuration. Every error names the relay and the parameter; one that names no valid relay is
     * labelled {@code outbox-relay parameter 'relay'}.
     *
     * @param raw            the template parameters as given
     * @param defaultSource  {@code gateway.source}
     * @param onlyDataSource the single configured datasource, or {@code null} when there are none or several
     * @param domains        how a {@code domainTable} is found in the relay's datasource
     */
    public static RelaySettings parse(Map<String, Object> raw, String defaultSource, String onlyDataSource,
                                      DomainLookup domains) {
        Map<String, String> given = TemplateParameters.text(raw);
        String relay = TemplateParameters.validated(RelayParameters.class, "relay", given,
                k -> "outbox-relay parameter '" + k + "'");
        UnaryOperator<String> label = k -> label(relay, k);
        Set<String> known = parameterNames();
        Set<String> unknown = given.keySet().stream().filter(k -> !known.contains(k))
                .filter(k -> !StepSettings.isAsVersion(k))
                .collect(Collectors.toCollection(TreeSet::new));
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(label.apply(unknown.iterator().next()) + ": unknown parameter; known: "
                    + known + " and " + StepSettings.AS_VERSION + ".<version>");
        }
        RelayParameters p = TemplateParameters.bind(RelayParameters.class, given, label);
        requireTransactionMode(p, label);
        Map<String, String> columns = new LinkedHashMap<>();
        for (OutboxColumn c : OutboxColumn.values()) {
            if (given.get(c.parameter()) != null) {
                columns.put(c.parameter(), given.get(c.parameter()));
            }
            if (c.valueParameter() != null && given.get(c.valueParameter()) != null) {
                columns.put(c.valueParameter(), given.get(c.valueParameter()));
            }
        }
        return of(p, columns, StepSettings.parse(p, given, label), defaultSource, onlyDataSource, domains, label);
    }

    /** The rules between parameters, and the values that need the relay's label to be parsed. */
    private static RelaySettings of(RelayParameters p, Map<String, String> columns, StepSettings steps,
                                    String defaultSource,
                                    String onlyDataSource, DomainLookup domains, UnaryOperator<String> label) {
        String dataSource = p.dataSource();
        if (dataSource.isBlank()) {
            if (onlyDataSource == null) {
                throw new IllegalArgumentException(label.apply("dataSource") + ": required when gateway.datasources"
                        + " has none or several entries");
            }
            dataSource = onlyDataSource;
        }
        MarkMode markMode = p.markMode();
        String stateDataSource = p.stateDataSource().isBlank() ? dataSource : p.stateDataSource();
        if (!stateDataSource.equals(dataSource) && markMode != MarkMode.ZERO_WRITE) {
            throw new IllegalArgumentException(label.apply("stateDataSource") + ": only markMode ZERO_WRITE may keep"
                    + " its state in another datasource; " + markMode + " records rejections in the table's own"
                    + " transaction");
        }
        if (p.settleTime().compareTo(RelayParameters.MIN_SETTLE_TIME) < 0) {
            throw new IllegalArgumentException(label.apply("settleTime") + ": " + p.settleTime().toMillis() + " ms is"
                    + " below 200 ms, which does not cover MariaDB's 0.1 s cache of running transactions");
        }
        if (p.claimLease().compareTo(p.publishTimeout()) <= 0) {
            // a cycle is idle in its transaction while it publishes: a shorter lease would end healthy cycles
            throw new IllegalArgumentException(label.apply("claimLease") + ": " + p.claimLease().toMillis() + " ms"
                    + " does not exceed publishTimeout (" + p.publishTimeout().toMillis() + " ms); the database would"
                    + " end the session of a cycle that is still publishing");
        }
        if (p.maxRetryBackoff().compareTo(p.retryBackoff()) < 0) {
            throw new IllegalArgumentException(label.apply("maxRetryBackoff") + ": " + p.maxRetryBackoff().toMillis()
                    + " ms is shorter than retryBackoff (" + p.retryBackoff().toMillis() + " ms)");
        }
        if (p.failedRowPolicy() == FailedRowPolicy.BLOCK_AGGREGATE && markMode == MarkMode.ZERO_WRITE) {
            throw new IllegalArgumentException(label.apply("failedRowPolicy") + ": BLOCK_AGGREGATE needs rows that"
                    + " stay claimable; ZERO_WRITE moves its position past every row, so a FAILED row cannot hold back"
                    + " its aggregate (use CONTINUE)");
        }
        Duration retention = null;
        if (!p.retention().equalsIgnoreCase(RelayParameters.RETENTION_OFF)) {
            retention = TemplateParameters.duration(label.apply("retention"), p.retention());
            if (markMode == MarkMode.DELETE || markMode == MarkMode.ZERO_WRITE) {
                throw new IllegalArgumentException(label.apply("retention") + ": markMode " + markMode + " keeps no"
                        + " published rows in the table (" + (markMode == MarkMode.DELETE ? "the relay deletes them"
                        : "the legacy owner decides what stays") + "); set retention: off");
            }
        }
        DomainTable domain = null;
        if (!p.domainTable().isBlank()) {
            if (retention != null || !(markMode == MarkMode.STATUS || markMode == MarkMode.TIMESTAMP)) {
                throw new IllegalArgumentException(label.apply("domainTable") + ": needs the published intents to"
                        + " stay in the outbox (markMode STATUS or TIMESTAMP, retention off); with markMode " + markMode
                        + (retention != null ? " and retention " + retention : "") + " a domain row whose intent was"
                        + " published and deleted would look like a dual-write gap");
            }
            domain = domains.stored(p.relay(), dataSource, new DomainTable(
                    TableName.parse(label.apply("domainTable"), p.domainTable()),
                    SqlIdentifier.require(label.apply("domainKeyColumn"), p.domainKeyColumn()),
                    p.domainAggregateType()));
        }
        return new RelaySettings(p.relay(), dataSource, TableName.parse(label.apply("table"), p.table()), columns,
                p.pendingStatus(), p.publishedStatus(), p.failedStatus(), p.payloadFormat(),
                Destination.parse(label.apply("destination"), p.destination()),
                p.source().isBlank() ? defaultSource : p.source(), p.batchSize(), p.pollInterval(), p.maxBackoff(),
                markMode, stateDataSource, p.startFrom(), p.settleTime(), p.naiveTimestampZone(),
                new RetryPolicy(p.maxAttempts(), p.retryBackoff(), p.maxRetryBackoff()), p.failedRowPolicy(),
                retention, p.attemptLog(), domain, p.wakeUp(), p.transactionMode(), steps,
                p.maxPayloadBytes().toBytes(), p.maxBatchBytes().toBytes(), p.publishTimeout(), p.claimLease());
    }

    /**
     * XA covers the modes whose cycle writes to the outbox's own database: ZERO_WRITE moves its position in another
     * transaction of the state datasource.
     */
    private static void requireTransactionMode(RelayParameters p, UnaryOperator<String> label) {
        if (p.transactionMode() == TransactionMode.XA && p.markMode() == MarkMode.ZERO_WRITE) {
            throw new IllegalArgumentException(label.apply("transactionMode") + ": XA needs a mark mode that writes"
                    + " to the outbox table (STATUS, TIMESTAMP or DELETE); ZERO_WRITE keeps its position in the state"
                    + " datasource. Use LOCAL");
        }
    }
}
