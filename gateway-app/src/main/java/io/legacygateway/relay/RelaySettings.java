package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.MarkMode;
import io.legacygateway.adapters.outbox.OutboxColumn;
import io.legacygateway.adapters.outbox.PayloadFormat;
import io.legacygateway.adapters.outbox.ZeroWriteReader;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.config.TemplateParameters;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The parameters of one {@code outbox-relay} route, parsed and validated. Every error names the parameter.
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
 */
public record RelaySettings(String relay, String dataSource, TableName table, Map<String, String> columns,
                            String pendingStatus, String publishedStatus, String failedStatus,
                            PayloadFormat payloadFormat, Destination destination, String source, int batchSize,
                            Duration pollInterval, Duration maxBackoff, MarkMode markMode, String stateDataSource,
                            ZeroWriteReader.StartFrom startFrom, Duration settleTime, ZoneId naiveTimestampZone,
                            RetryPolicy retry, FailedRowPolicy failedRowPolicy, Duration retention,
                            boolean attemptLog, DomainTable domain, WakeUp wakeUp) {

    /**
     * The business table behind an outbox (as with trigger capture): a row of it whose key has no outbox row with
     * {@code aggregate_id} = key (and the aggregate type, when given) is a dual-write gap.
     */
    public record DomainTable(TableName table, String keyColumn, String aggregateType) {
    }

    /** The same settings with another domain table (its names as the database spells them). */
    public RelaySettings withDomain(DomainTable stored) {
        return new RelaySettings(relay, dataSource, table, columns, pendingStatus, publishedStatus, failedStatus,
                payloadFormat, destination, source, batchSize, pollInterval, maxBackoff, markMode, stateDataSource,
                startFrom, settleTime, naiveTimestampZone, retry, failedRowPolicy, retention, attemptLog, stored, wakeUp);
    }

    /** What runs a cycle besides the timer at {@code pollInterval}, which keeps running as the safety net. */
    public enum WakeUp {
        /** Nothing: rows are claimed at the next poll. */
        NONE,
        /**
         * PostgreSQL: the relay listens on its table's channel ({@code triggers --notify} installs the trigger that
         * signals it) and runs a cycle as soon as a notification arrives.
         */
        NOTIFY
    }

    /** What a FAILED row means for the later rows of its aggregate. */
    public enum FailedRowPolicy {
        /** They are published: a FAILED row never blocks other rows. */
        CONTINUE,
        /** They wait until the FAILED row has been retried and published, then follow in order. */
        BLOCK_AGGREGATE
    }

    /** Template parameters, with their defaults and descriptions (the README's table is generated from the same text). */
    public enum Parameter implements TemplateParameters.Parameter {
        RELAY("relay", null, "Relay name (lowercase letters, digits, dashes): route id outbox-relay-<relay>, metric tag, locked_by value"),
        DATA_SOURCE("dataSource", "", "Datasource name under gateway.datasources; may be left out when exactly one is configured"),
        TABLE("table", "outbox", "Outbox table, optionally schema.table"),
        DESTINATION("destination", null, "queue:<name> or topic:<name>; the name may use {eventType} and {aggregateType}"),
        SOURCE("source", "", "CloudEvents source; default gateway.source"),
        PAYLOAD_FORMAT("payloadFormat", "JSON", "JSON (payload must parse; becomes data) or TEXT (data is a string)"),
        PENDING_STATUS("pendingStatus", "PENDING", "Status value of rows waiting to be published"),
        PUBLISHED_STATUS("publishedStatus", "PUBLISHED", "Status value written after the broker confirmed the row"),
        FAILED_STATUS("failedStatus", "FAILED", "Status value of rows parked with their reason"),
        BATCH_SIZE("batchSize", "500", "Rows per claim and per broker transaction (1-1000)"),
        POLL_INTERVAL("pollInterval", "100ms", "Pause between polls once the table is drained"),
        MAX_BACKOFF("maxBackoff", "30s", "Longest pause between attempts while the broker or database fails"),
        MARK_MODE("markMode", "STATUS", "How published rows are recorded: STATUS (status column), TIMESTAMP (processed-at"
                + " column publishedAtColumn, NULL = pending), DELETE (delete after publish) or ZERO_WRITE (read-only; the"
                + " gateway keeps its position in its own table)"),
        STATE_DATA_SOURCE("stateDataSource", "", "Datasource holding the gateway's own tables for this relay"
                + " (gateway_outbox_position, gateway_outbox_rejection); default the relay's dataSource. Only ZERO_WRITE"
                + " may use another one"),
        START_FROM("startFrom", "BEGINNING", "ZERO_WRITE: where a new relay starts, BEGINNING (rows already in the"
                + " table too) or NOW (only rows that were not yet final at its first start)"),
        SETTLE_TIME("settleTime", "1s", "ZERO_WRITE on MariaDB: margin below the start of the oldest running"
                + " transaction or statement before a row counts as final"),
        NAIVE_TIMESTAMP_ZONE("naiveTimestampZone", "UTC", "Time zone of timestamp columns without time zone (read and"
                + " written), for example UTC or Europe/Berlin"),
        MAX_ATTEMPTS("maxAttempts", "5", "Attempts at a row (the broker refuses it, or it cannot become an event)"
                + " before it is parked as FAILED (1-100; 1 parks it at the first failure)"),
        RETRY_BACKOFF("retryBackoff", "10s", "Wait after a row's first failed attempt; doubled after each further one,"
                + " with +/-20 % jitter"),
        MAX_RETRY_BACKOFF("maxRetryBackoff", "1h", "Longest wait between two attempts at a row"),
        FAILED_ROW_POLICY("failedRowPolicy", "CONTINUE", "CONTINUE (later rows of a FAILED row's aggregate are"
                + " published) or BLOCK_AGGREGATE (they wait until the FAILED row is retried and published; not in"
                + " ZERO_WRITE mode)"),
        RETENTION("retention", "off", "Delete published rows this long after publication, e.g. 7d (STATUS with a"
                + " publishedAtColumn, and TIMESTAMP mode); off keeps them. FAILED rows are never deleted"),
        ATTEMPT_LOG("attemptLog", "true", "Record every attempt (broker answer, mark) in gateway_outbox_attempt in the"
                + " stateDataSource, in transactions of its own: the facts of the reconciliation report. false saves"
                + " two small writes per batch (one multi-row insert before the send, one update after the cycle); the"
                + " report then cannot tell duplicate deliveries"),
        DOMAIN_TABLE("domainTable", "", "Business table whose every row must have an intent in this outbox (for"
                + " example the table capture triggers watch): the reconciliation reports a row without one as"
                + " DUAL_WRITE_GAP_OBSERVED. Needs rows that stay (STATUS or TIMESTAMP mode, retention off)"),
        DOMAIN_KEY_COLUMN("domainKeyColumn", "id", "Key column of domainTable; its value as text is the intent's"
                + " aggregate id"),
        DOMAIN_AGGREGATE_TYPE("domainAggregateType", "", "Aggregate type of domainTable's intents; empty: any"),
        WAKE_UP("wakeUp", "NONE", "NONE (rows are claimed at the next poll) or NOTIFY (PostgreSQL: listen on channel"
                + " gw_outbox_<table>, signalled by the trigger of triggers --notify, and run a cycle as soon as a"
                + " notification arrives; polling at pollInterval stays the safety net)");

        private final String key;
        private final String defaultValue;
        private final String description;

        Parameter(String key, String defaultValue, String description) {
            this.key = key;
            this.defaultValue = defaultValue;
            this.description = description;
        }

        public String key() {
            return key;
        }

        /** {@code null} for a required parameter. */
        public String defaultValue() {
            return defaultValue;
        }

        public String description() {
            return description;
        }
    }

    /** How errors name a parameter: {@code outbox-relay 'orders' parameter 'table'}. */
    public static String label(String relay, String parameter) {
        return "outbox-relay '" + relay + "' parameter '" + parameter + "'";
    }

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    /**
     * Every parameter name the template accepts: the ones above, one per {@link OutboxColumn}, and the values that
     * may replace a column ({@link OutboxColumn#valueParameter()}).
     */
    public static Set<String> parameterNames() {
        Set<String> names = new TreeSet<>();
        Arrays.stream(Parameter.values()).map(Parameter::key).forEach(names::add);
        Arrays.stream(OutboxColumn.values()).map(OutboxColumn::parameter).forEach(names::add);
        Arrays.stream(OutboxColumn.values()).map(OutboxColumn::valueParameter).filter(java.util.Objects::nonNull)
                .forEach(names::add);
        return names;
    }

    /**
     * @param raw           the template parameters as given
     * @param defaultSource {@code gateway.source}
     * @param onlyDataSource the single configured datasource, or {@code null} when there are none or several
     */
    public static RelaySettings parse(Map<String, Object> raw, String defaultSource, String onlyDataSource) {
        TemplateParameters p = TemplateParameters.of(raw, k -> "outbox-relay parameter '" + k + "'");
        String relay = p.required(Parameter.RELAY);
        if (!NAME.matcher(relay).matches()) {
            throw new IllegalArgumentException("outbox-relay parameter 'relay': '" + relay + "' must match " + NAME.pattern());
        }
        p = p.labelled(k -> label(relay, k));
        Set<String> unknown = p.given().keySet().stream().filter(k -> !parameterNames().contains(k))
                .collect(Collectors.toCollection(TreeSet::new));
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(label(relay, unknown.iterator().next()) + ": unknown parameter; known: "
                    + parameterNames());
        }
        String dataSource = p.value(Parameter.DATA_SOURCE);
        if (dataSource.isBlank()) {
            if (onlyDataSource == null) {
                throw new IllegalArgumentException(label(relay, "dataSource") + ": required when gateway.datasources has "
                        + "none or several entries");
            }
            dataSource = onlyDataSource;
        }
        TableName table = TableName.parse(label(relay, "table"), p.value(Parameter.TABLE));
        Map<String, String> columns = new LinkedHashMap<>();
        for (OutboxColumn c : OutboxColumn.values()) {
            if (p.given().get(c.parameter()) != null) {
                columns.put(c.parameter(), p.given().get(c.parameter()));
            }
            if (c.valueParameter() != null && p.given().get(c.valueParameter()) != null) {
                columns.put(c.valueParameter(), p.given().get(c.valueParameter()));
            }
        }
        PayloadFormat format = p.choice(Parameter.PAYLOAD_FORMAT, PayloadFormat.class);
        Destination destination = Destination.parse(label(relay, "destination"), p.required(Parameter.DESTINATION));
        String source = p.value(Parameter.SOURCE);
        int batchSize = p.integer(Parameter.BATCH_SIZE, 1, 1000);
        MarkMode markMode = p.choice(Parameter.MARK_MODE, MarkMode.class);
        String stateDataSource = p.value(Parameter.STATE_DATA_SOURCE);
        if (stateDataSource.isBlank()) {
            stateDataSource = dataSource;
        } else if (!stateDataSource.equals(dataSource) && markMode != MarkMode.ZERO_WRITE) {
            throw new IllegalArgumentException(label(relay, "stateDataSource") + ": only markMode ZERO_WRITE may keep"
                    + " its state in another datasource; " + markMode + " records rejections in the table's own"
                    + " transaction");
        }
        ZeroWriteReader.StartFrom startFrom = p.choice(Parameter.START_FROM, ZeroWriteReader.StartFrom.class);
        Duration settleTime = p.duration(Parameter.SETTLE_TIME);
        if (settleTime.compareTo(Duration.ofMillis(200)) < 0) {
            throw new IllegalArgumentException(label(relay, "settleTime") + ": " + settleTime.toMillis() + " ms is below"
                    + " 200 ms, which does not cover MariaDB's 0.1 s cache of running transactions");
        }
        ZoneId zone;
        try {
            zone = ZoneId.of(p.value(Parameter.NAIVE_TIMESTAMP_ZONE));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(label(relay, "naiveTimestampZone") + ": '"
                    + p.given().get("naiveTimestampZone") + "' is not a time zone such as UTC, +02:00 or Europe/Berlin");
        }
        int maxAttempts = p.integer(Parameter.MAX_ATTEMPTS, 1, 100);
        Duration retryBackoff = p.duration(Parameter.RETRY_BACKOFF);
        Duration maxRetryBackoff = p.duration(Parameter.MAX_RETRY_BACKOFF);
        if (maxRetryBackoff.compareTo(retryBackoff) < 0) {
            throw new IllegalArgumentException(label(relay, "maxRetryBackoff") + ": " + maxRetryBackoff.toMillis()
                    + " ms is shorter than retryBackoff (" + retryBackoff.toMillis() + " ms)");
        }
        FailedRowPolicy policy = p.choice(Parameter.FAILED_ROW_POLICY, FailedRowPolicy.class);
        if (policy == FailedRowPolicy.BLOCK_AGGREGATE && markMode == MarkMode.ZERO_WRITE) {
            throw new IllegalArgumentException(label(relay, "failedRowPolicy") + ": BLOCK_AGGREGATE needs rows that"
                    + " stay claimable; ZERO_WRITE moves its position past every row, so a FAILED row cannot hold back"
                    + " its aggregate (use CONTINUE)");
        }
        Duration retention = null;
        String retentionValue = p.value(Parameter.RETENTION);
        if (!retentionValue.equalsIgnoreCase("off")) {
            retention = p.duration(Parameter.RETENTION);
            if (markMode == MarkMode.DELETE || markMode == MarkMode.ZERO_WRITE) {
                throw new IllegalArgumentException(label(relay, "retention") + ": markMode " + markMode + " keeps no"
                        + " published rows in the table (" + (markMode == MarkMode.DELETE ? "the relay deletes them"
                        : "the legacy owner decides what stays") + "); set retention: off");
            }
        }
        boolean attemptLog = p.bool(Parameter.ATTEMPT_LOG);
        DomainTable domain = null;
        String domainTable = p.value(Parameter.DOMAIN_TABLE);
        if (!domainTable.isBlank()) {
            if (retention != null || !(markMode == MarkMode.STATUS || markMode == MarkMode.TIMESTAMP)) {
                throw new IllegalArgumentException(label(relay, "domainTable") + ": needs the published intents to"
                        + " stay in the outbox (markMode STATUS or TIMESTAMP, retention off); with markMode " + markMode
                        + (retention != null ? " and retention " + retention : "") + " a domain row whose intent was"
                        + " published and deleted would look like a dual-write gap");
            }
            domain = new DomainTable(TableName.parse(label(relay, "domainTable"), domainTable),
                    io.legacygateway.adapters.sql.SqlIdentifier.require(label(relay, "domainKeyColumn"),
                            p.value(Parameter.DOMAIN_KEY_COLUMN)),
                    p.value(Parameter.DOMAIN_AGGREGATE_TYPE));
        }
        return new RelaySettings(relay, dataSource, table, columns, status(p, Parameter.PENDING_STATUS),
                status(p, Parameter.PUBLISHED_STATUS), status(p, Parameter.FAILED_STATUS), format,
                destination, source.isBlank() ? defaultSource : source, batchSize,
                p.duration(Parameter.POLL_INTERVAL), p.duration(Parameter.MAX_BACKOFF), markMode,
                stateDataSource, startFrom, settleTime, zone, new RetryPolicy(maxAttempts, retryBackoff,
                maxRetryBackoff), policy, retention, attemptLog, domain, p.choice(Parameter.WAKE_UP, WakeUp.class));
    }

    private static String status(TemplateParameters p, Parameter parameter) {
        String v = p.value(parameter);
        if (v.isBlank() || v.length() > 64) {
            throw new IllegalArgumentException(p.label(parameter.key()) + ": must be 1-64 characters");
        }
        return v;
    }
}
