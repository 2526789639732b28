package io.legacygateway.adapters.outbox;

/**
 * The logical columns a relay reads or writes, each with the route-template parameter that maps it, the column name of
 * the default outbox schema, and whether a mapping may leave it out.
 *
 * <p>A parameter set to {@value #ABSENT} declares an optional column absent. An optional column left at its default
 * is used when the table has it and ignored otherwise; a column named explicitly must exist.
 */
public enum OutboxColumn {
    /** Unique row key used to mark the row. */
    KEY("keyColumn", "seq", true, "unique row key, used to mark the row"),
    /** Monotonic insertion order: rows are claimed and published in this order. */
    ORDER("orderColumn", "seq", true, "insertion order; rows are claimed and published in this order"),
    EVENT_ID("eventIdColumn", "id", true, "globally unique event id (CloudEvents id, _AMQ_DUPL_ID)"),
    AGGREGATE_TYPE("aggregateTypeColumn", "aggregate_type", true, "aggregate type (extension aggregatetype)"),
    AGGREGATE_ID("aggregateIdColumn", "aggregate_id", true, "aggregate id (CloudEvents subject, ordering key)"),
    EVENT_TYPE("eventTypeColumn", "event_type", true, "event type (CloudEvents type)"),
    EVENT_VERSION("eventVersionColumn", "event_version", false, "event schema version (extension eventversion); 1 when absent"),
    PAYLOAD("payloadColumn", "payload", true, "event payload (CloudEvents data)"),
    OCCURRED_AT("occurredAtColumn", "occurred_at", false, "business time of the event (CloudEvents time)"),
    CREATED_AT("createdAtColumn", "created_at", false, "time the row was written; CloudEvents time when occurred-at is absent"),
    CORRELATION_ID("correlationIdColumn", "correlation_id", false, "extension correlationid and JMSCorrelationID"),
    CAUSATION_ID("causationIdColumn", "causation_id", false, "extension causationid"),
    TRACE("traceColumn", "trace_id", false, "W3C traceparent or 32-hex trace id (extension traceparent)"),
    STATUS("statusColumn", "status", true, "publication status (PENDING, PUBLISHED, FAILED by default)"),
    RETRY_COUNT("retryCountColumn", "retry_count", false, "attempts that failed"),
    LAST_ERROR("lastErrorColumn", "last_error", false, "reason of the last failure"),
    PUBLISHED_AT("publishedAtColumn", "published_at", false, "time the broker accepted the event"),
    NEXT_RETRY_AT("nextRetryAtColumn", "next_retry_at", false, "row is not claimed before this time"),
    LOCKED_BY("lockedByColumn", "locked_by", false, "relay instance that published the row");

    /** Parameter value that declares an optional column absent. */
    public static final String ABSENT = "none";

    private final String parameter;
    private final String defaultName;
    private final boolean required;
    private final String description;

    OutboxColumn(String parameter, String defaultName, boolean required, String description) {
        this.parameter = parameter;
        this.defaultName = defaultName;
        this.required = required;
        this.description = description;
    }

    /** The route-template parameter that maps this column. */
    public String parameter() {
        return parameter;
    }

    /** The column's name in the default outbox schema. */
    public String defaultName() {
        return defaultName;
    }

    public boolean required() {
        return required;
    }

    public String description() {
        return description;
    }
}
