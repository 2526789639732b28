package io.legacygateway.adapters.outbox.mapping;

import static io.legacygateway.adapters.outbox.mapping.ColumnKind.BINARY;
import static io.legacygateway.adapters.outbox.mapping.ColumnKind.CHAR;
import static io.legacygateway.adapters.outbox.mapping.ColumnKind.DATE;
import static io.legacygateway.adapters.outbox.mapping.ColumnKind.DECIMAL;
import static io.legacygateway.adapters.outbox.mapping.ColumnKind.INTEGER;
import static io.legacygateway.adapters.outbox.mapping.ColumnKind.TEXT;
import static io.legacygateway.adapters.outbox.mapping.ColumnKind.TIMESTAMP;
import static io.legacygateway.adapters.outbox.mapping.ColumnKind.TIMESTAMP_TZ;
import static io.legacygateway.adapters.outbox.mapping.ColumnKind.UUID;

import java.util.EnumSet;
import java.util.Set;

/**
 * The logical columns a relay reads or writes, each with the route-template parameter that maps it, the column name of
 * the default outbox schema, whether a mapping may leave it out, the column types the gateway can convert, and the
 * text of the reference tables.
 *
 * <p>A parameter set to {@value #ABSENT} declares an optional column absent. An optional column left at its default
 * is used when the table has it and ignored otherwise; a column named explicitly must exist. Some values may instead
 * be given as a {@link ValueTemplate} ({@link #valueParameter()}, for example {@code aggregateType: Order}) when the
 * table has no column for them.
 */
public enum OutboxColumn {
    /** Unique row key used to mark the row. */
    KEY("keyColumn", "seq", Requirement.ALWAYS, "unique row key, used to mark the row",
            EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL, TIMESTAMP, TIMESTAMP_TZ), null,
            "unique row key, used to mark the row (text, number, UUID or timestamp)",
            null),
    /** Insertion order: rows are claimed and published in this order. */
    ORDER("orderColumn", "seq", Requirement.ALWAYS, "insertion order; rows are claimed and published in this order",
            EnumSet.of(TEXT, CHAR, INTEGER, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, DATE), null,
            "insertion order; rows are claimed and published in this order",
            null),
    EVENT_ID("eventIdColumn", "id", Requirement.ALWAYS,
            "globally unique event id (CloudEvents id; with a digest of the envelope, _AMQ_DUPL_ID)",
            EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), "eventId",
            "globally unique event id (CloudEvents `id`; with a digest of the envelope, `_AMQ_DUPL_ID`)",
            "The event id as a template instead of `eventIdColumn`, for example `billing-{key}` (placeholders "
                    + "`{key}`, `{table}`, `{aggregateId}`, `{aggregateType}`, `{eventType}`); must stay the same "
                    + "for a row across republishing. A template from the key alone repeats ids when the keys start "
                    + "again (sequence reset, reloaded table): the broker still takes such events, consumers' "
                    + "inboxes skip them; startup warns"),
    AGGREGATE_TYPE("aggregateTypeColumn", "aggregate_type", Requirement.ALWAYS,
            "aggregate type (extension aggregatetype)", EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), "aggregateType",
            "aggregate type (extension `aggregatetype`)",
            "The aggregate type as a constant or template instead of `aggregateTypeColumn`, for example `Order` "
                    + "(placeholders `{key}`, `{table}`, `{aggregateId}`)"),
    AGGREGATE_ID("aggregateIdColumn", "aggregate_id", Requirement.ALWAYS,
            "aggregate id (CloudEvents subject, ordering key)", EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), null,
            "aggregate id (CloudEvents `subject`, ordering key)",
            null),
    EVENT_TYPE("eventTypeColumn", "event_type", Requirement.ALWAYS, "event type (CloudEvents type)",
            EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), "eventType",
            "event type (CloudEvents `type`)",
            "The event type as a constant or template instead of `eventTypeColumn`, for example "
                    + "`{aggregateType}Changed` (placeholders `{key}`, `{table}`, `{aggregateId}`, `{aggregateType}`)"),
    EVENT_VERSION("eventVersionColumn", "event_version", Requirement.OPTIONAL,
            "event schema version (extension eventversion); 1 when absent", EnumSet.of(INTEGER, DECIMAL, TEXT, CHAR),
            "eventVersion",
            "event schema version; 1 when absent",
            "The event version (an integer >= 1) instead of `eventVersionColumn`"),
    PAYLOAD("payloadColumn", "payload", Requirement.ALWAYS,
            "event payload (CloudEvents data): text, JSON, CLOB, or binary holding UTF-8", EnumSet.of(TEXT, CHAR, BINARY),
            null,
            "event payload (CloudEvents `data`): text, JSON, CLOB, or binary holding UTF-8; with "
                    + "`payloadFormat: COLUMNS` the columns whose values make it, `a, b, c` or `*`",
            null),
    OCCURRED_AT("occurredAtColumn", "occurred_at", Requirement.OPTIONAL, "business time of the event (CloudEvents time)",
            EnumSet.of(TIMESTAMP, TIMESTAMP_TZ, DATE), null,
            "business time of the event (CloudEvents `time`)",
            null),
    CREATED_AT("createdAtColumn", "created_at", Requirement.ZERO_WRITE_MARIADB,
            "time the row was written; CloudEvents time when occurred-at is absent. ZERO_WRITE on MariaDB: must be "
                    + "filled by the database (DEFAULT CURRENT_TIMESTAMP(6))", EnumSet.of(TIMESTAMP, TIMESTAMP_TZ, DATE),
            null,
            "time the row was written; `time` when occurred-at is absent. `ZERO_WRITE` on MariaDB: filled by the "
                    + "database (`DEFAULT CURRENT_TIMESTAMP(6)`)",
            null),
    CORRELATION_ID("correlationIdColumn", "correlation_id", Requirement.OPTIONAL,
            "extension correlationid and JMSCorrelationID", EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), null,
            "extension `correlationid` and `JMSCorrelationID`",
            null),
    CAUSATION_ID("causationIdColumn", "causation_id", Requirement.OPTIONAL, "extension causationid",
            EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), null,
            "extension `causationid`",
            null),
    TRACE("traceColumn", "trace_id", Requirement.OPTIONAL, "W3C traceparent or 32-hex trace id (extension traceparent)",
            EnumSet.of(TEXT, CHAR), null,
            "W3C `traceparent`, or a 32-hex trace id (a parent id is derived from the event id)",
            null),
    STATUS("statusColumn", "status", Requirement.STATUS_MODE,
            "publication status (PENDING, PUBLISHED, FAILED by default; text or integer)",
            EnumSet.of(TEXT, CHAR, INTEGER), null,
            "publication status (text, or integer with integer status values)",
            null),
    RETRY_COUNT("retryCountColumn", "retry_count", Requirement.OPTIONAL, "attempts that failed",
            EnumSet.of(INTEGER, DECIMAL), null,
            "attempts that failed; with `nextRetryAtColumn` the attempts are kept on the row, else in "
                    + "`gateway_outbox_rejection`",
            null),
    LAST_ERROR("lastErrorColumn", "last_error", Requirement.OPTIONAL,
            "reason of the last failure (without it, reasons go to gateway_outbox_rejection)", EnumSet.of(TEXT, CHAR),
            null,
            "reason of the last failure; without it reasons go to `gateway_outbox_rejection`",
            null),
    PUBLISHED_AT("publishedAtColumn", "published_at", Requirement.TIMESTAMP_MODE,
            "time the broker accepted the event; in TIMESTAMP mode the processed-at column (NULL = pending)",
            EnumSet.of(TIMESTAMP, TIMESTAMP_TZ), null,
            "time the broker accepted the event; in `TIMESTAMP` mode the processed-at column (NULL = pending)",
            null),
    NEXT_RETRY_AT("nextRetryAtColumn", "next_retry_at", Requirement.OPTIONAL, "row is not claimed before this time",
            EnumSet.of(TIMESTAMP, TIMESTAMP_TZ), null,
            "row is not claimed before this time (set by the relay after a failed attempt)",
            null),
    LOCKED_BY("lockedByColumn", "locked_by", Requirement.OPTIONAL, "relay instance that published the row",
            EnumSet.of(TEXT, CHAR), null,
            "relay instance (`<relay>@<host>:<pid>`) that published the row",
            null);

    /** Parameter value that declares an optional column absent. */
    public static final String ABSENT = "none";

    /** When a mapping must have the column; the README shows {@link #text}. */
    public enum Requirement {
        ALWAYS("yes"),
        OPTIONAL("no"),
        STATUS_MODE("in `STATUS` mode"),
        TIMESTAMP_MODE("in `TIMESTAMP` mode"),
        ZERO_WRITE_MARIADB("in `ZERO_WRITE` mode on MariaDB");

        private final String text;

        Requirement(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    private final String parameter;
    private final String defaultName;
    private final Requirement requirement;
    private final String description;
    private final Set<ColumnKind> kinds;
    private final String valueParameter;
    private final String reference;
    private final String valueReference;

    OutboxColumn(String parameter, String defaultName, Requirement requirement, String description,
                 Set<ColumnKind> kinds, String valueParameter, String reference, String valueReference) {
        this.parameter = parameter;
        this.defaultName = defaultName;
        this.requirement = requirement;
        this.description = description;
        this.kinds = kinds;
        this.valueParameter = valueParameter;
        this.reference = reference;
        this.valueReference = valueReference;
    }

    /** The route-template parameter that maps this column. */
    public String parameter() {
        return parameter;
    }

    /** The column's name in the default outbox schema. */
    public String defaultName() {
        return defaultName;
    }

    /** Whether every mapping needs this column (or its {@link #valueParameter() value}). */
    public boolean required() {
        return requirement == Requirement.ALWAYS;
    }

    public Requirement requirement() {
        return requirement;
    }

    /** What the column is, as errors name it ("the {description} column"). */
    public String description() {
        return description;
    }

    /** What the column holds, in Markdown, as the column table of the reference shows it. */
    public String reference() {
        return reference;
    }

    /** What {@link #valueParameter()} gives instead of the column, in Markdown; {@code null} without one. */
    public String valueReference() {
        return valueReference;
    }

    /** The column types the gateway can convert for this column. */
    public Set<ColumnKind> kinds() {
        return kinds;
    }

    /**
     * The parameter that gives this value as a constant or {@link ValueTemplate} instead of a column, or {@code null}
     * when the value must come from a column.
     */
    public String valueParameter() {
        return valueParameter;
    }
}
