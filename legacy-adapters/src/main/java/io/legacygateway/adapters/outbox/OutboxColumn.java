package io.legacygateway.adapters.outbox;

import static io.legacygateway.adapters.outbox.ColumnKind.BINARY;
import static io.legacygateway.adapters.outbox.ColumnKind.CHAR;
import static io.legacygateway.adapters.outbox.ColumnKind.DATE;
import static io.legacygateway.adapters.outbox.ColumnKind.DECIMAL;
import static io.legacygateway.adapters.outbox.ColumnKind.INTEGER;
import static io.legacygateway.adapters.outbox.ColumnKind.TEXT;
import static io.legacygateway.adapters.outbox.ColumnKind.TIMESTAMP;
import static io.legacygateway.adapters.outbox.ColumnKind.TIMESTAMP_TZ;
import static io.legacygateway.adapters.outbox.ColumnKind.UUID;

import java.util.EnumSet;
import java.util.Set;

/**
 * The logical columns a relay reads or writes, each with the route-template parameter that maps it, the column name of
 * the default outbox schema, whether a mapping may leave it out, and the column types the gateway can convert.
 *
 * <p>A parameter set to {@value #ABSENT} declares an optional column absent. An optional column left at its default
 * is used when the table has it and ignored otherwise; a column named explicitly must exist. Some values may instead
 * be given as a {@link ValueTemplate} ({@link #valueParameter()}, for example {@code aggregateType: Order}) when the
 * table has no column for them.
 */
public enum OutboxColumn {
    /** Unique row key used to mark the row. */
    KEY("keyColumn", "seq", Requirement.ALWAYS, "unique row key, used to mark the row",
            EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL, TIMESTAMP, TIMESTAMP_TZ), null),
    /** Insertion order: rows are claimed and published in this order. */
    ORDER("orderColumn", "seq", Requirement.ALWAYS, "insertion order; rows are claimed and published in this order",
            EnumSet.of(TEXT, CHAR, INTEGER, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, DATE), null),
    EVENT_ID("eventIdColumn", "id", Requirement.ALWAYS,
            "globally unique event id (CloudEvents id; with a digest of the envelope, _AMQ_DUPL_ID)",
            EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), "eventId"),
    AGGREGATE_TYPE("aggregateTypeColumn", "aggregate_type", Requirement.ALWAYS,
            "aggregate type (extension aggregatetype)", EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), "aggregateType"),
    AGGREGATE_ID("aggregateIdColumn", "aggregate_id", Requirement.ALWAYS,
            "aggregate id (CloudEvents subject, ordering key)", EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), null),
    EVENT_TYPE("eventTypeColumn", "event_type", Requirement.ALWAYS, "event type (CloudEvents type)",
            EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), "eventType"),
    EVENT_VERSION("eventVersionColumn", "event_version", Requirement.OPTIONAL,
            "event schema version (extension eventversion); 1 when absent", EnumSet.of(INTEGER, DECIMAL, TEXT, CHAR),
            "eventVersion"),
    PAYLOAD("payloadColumn", "payload", Requirement.ALWAYS,
            "event payload (CloudEvents data): text, JSON, CLOB, or binary holding UTF-8", EnumSet.of(TEXT, CHAR, BINARY),
            null),
    OCCURRED_AT("occurredAtColumn", "occurred_at", Requirement.OPTIONAL, "business time of the event (CloudEvents time)",
            EnumSet.of(TIMESTAMP, TIMESTAMP_TZ, DATE), null),
    CREATED_AT("createdAtColumn", "created_at", Requirement.ZERO_WRITE_MARIADB,
            "time the row was written; CloudEvents time when occurred-at is absent. ZERO_WRITE on MariaDB: must be "
                    + "filled by the database (DEFAULT CURRENT_TIMESTAMP(6))", EnumSet.of(TIMESTAMP, TIMESTAMP_TZ, DATE),
            null),
    CORRELATION_ID("correlationIdColumn", "correlation_id", Requirement.OPTIONAL,
            "extension correlationid and JMSCorrelationID", EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), null),
    CAUSATION_ID("causationIdColumn", "causation_id", Requirement.OPTIONAL, "extension causationid",
            EnumSet.of(TEXT, CHAR, UUID, INTEGER, DECIMAL), null),
    TRACE("traceColumn", "trace_id", Requirement.OPTIONAL, "W3C traceparent or 32-hex trace id (extension traceparent)",
            EnumSet.of(TEXT, CHAR), null),
    STATUS("statusColumn", "status", Requirement.STATUS_MODE,
            "publication status (PENDING, PUBLISHED, FAILED by default; text or integer)",
            EnumSet.of(TEXT, CHAR, INTEGER), null),
    RETRY_COUNT("retryCountColumn", "retry_count", Requirement.OPTIONAL, "attempts that failed",
            EnumSet.of(INTEGER, DECIMAL), null),
    LAST_ERROR("lastErrorColumn", "last_error", Requirement.OPTIONAL,
            "reason of the last failure (without it, reasons go to gateway_outbox_rejection)", EnumSet.of(TEXT, CHAR),
            null),
    PUBLISHED_AT("publishedAtColumn", "published_at", Requirement.TIMESTAMP_MODE,
            "time the broker accepted the event; in TIMESTAMP mode the processed-at column (NULL = pending)",
            EnumSet.of(TIMESTAMP, TIMESTAMP_TZ), null),
    NEXT_RETRY_AT("nextRetryAtColumn", "next_retry_at", Requirement.OPTIONAL, "row is not claimed before this time",
            EnumSet.of(TIMESTAMP, TIMESTAMP_TZ), null),
    LOCKED_BY("lockedByColumn", "locked_by", Requirement.OPTIONAL, "relay instance that published the row",
            EnumSet.of(TEXT, CHAR), null);

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

    OutboxColumn(String parameter, String defaultName, Requirement requirement, String description,
                 Set<ColumnKind> kinds, String valueParameter) {
        this.parameter = parameter;
        this.defaultName = defaultName;
        this.requirement = requirement;
        this.description = description;
        this.kinds = kinds;
        this.valueParameter = valueParameter;
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

    public String description() {
        return description;
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
