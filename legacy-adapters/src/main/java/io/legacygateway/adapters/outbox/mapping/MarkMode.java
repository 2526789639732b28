package io.legacygateway.adapters.outbox.mapping;

import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.LAST_ERROR;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.LOCKED_BY;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.NEXT_RETRY_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.PUBLISHED_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.RETRY_COUNT;

import java.util.EnumSet;
import java.util.Set;

/**
 * How a relay records that a row has been published, which decides the rights it needs on the legacy table.
 *
 * <p>In every mode a row is published at least once after its transaction committed, and a row that cannot become an
 * event is kept with its reason (on the row where the mode writes to it and the table has a reason column, otherwise in
 * the gateway's table {@code gateway_outbox_rejection}) and never blocks other rows.
 */
public enum MarkMode {
    /**
     * A status column: claimed where it holds the pending value, set to the published or failed value. Rows are claimed
     * with {@code FOR UPDATE SKIP LOCKED}; several relays may share a table and keep per-aggregate order. Needs SELECT
     * and UPDATE.
     */
    STATUS(EnumSet.of(OutboxColumn.STATUS), EnumSet.of(OutboxColumn.STATUS, RETRY_COUNT, LAST_ERROR, PUBLISHED_AT, NEXT_RETRY_AT, LOCKED_BY)),
    /**
     * A processed-timestamp column (the {@code publishedAtColumn}): claimed where it is NULL, set when published or
     * rejected. Same claim and ordering guarantees as {@link #STATUS}. Needs SELECT and UPDATE.
     */
    TIMESTAMP(EnumSet.of(PUBLISHED_AT), EnumSet.of(PUBLISHED_AT, RETRY_COUNT, LAST_ERROR, NEXT_RETRY_AT, LOCKED_BY)),
    /**
     * Delete after publish. Rejected rows stay in the table and are recorded in the gateway's rejection table, which
     * must therefore live in the same database; claims skip them. Same claim and ordering guarantees as
     * {@link #STATUS}. Needs SELECT and DELETE, plus INSERT on the rejection table.
     */
    DELETE(EnumSet.noneOf(OutboxColumn.class), EnumSet.of(NEXT_RETRY_AT)),
    /**
     * Read-only: SELECT on the legacy table is all it needs; the relay keeps its position in the gateway's own table
     * {@code gateway_outbox_position} (possibly in another datasource) and publishes a row only once its transaction is
     * provably final, so a transaction that commits late is never skipped (PostgreSQL: transaction ids and snapshots;
     * MariaDB: a database-filled insert time and the oldest active transaction; other databases: refused). One active
     * relay per position (the position row is locked for the cycle).
     */
    ZERO_WRITE(EnumSet.noneOf(OutboxColumn.class), EnumSet.noneOf(OutboxColumn.class));

    /** The columns this mode writes or filters on; the others of {@link #WRITE_SIDE} are not used. */
    private final Set<OutboxColumn> required;
    private final Set<OutboxColumn> uses;

    /** Columns only some modes use. */
    public static final Set<OutboxColumn> WRITE_SIDE =
            EnumSet.of(OutboxColumn.STATUS, RETRY_COUNT, LAST_ERROR, PUBLISHED_AT, NEXT_RETRY_AT, LOCKED_BY);

    MarkMode(Set<OutboxColumn> required, Set<OutboxColumn> uses) {
        this.required = required;
        this.uses = uses;
    }

    /** Whether the mode needs this column (beyond the columns every mode needs). */
    public boolean requires(OutboxColumn column) {
        return required.contains(column);
    }

    /** Whether the mode reads or writes this column at all. */
    public boolean uses(OutboxColumn column) {
        return !WRITE_SIDE.contains(column) || uses.contains(column);
    }

    /** Whether the relay writes to the legacy table in this mode. */
    public boolean writesToTable() {
        return this != ZERO_WRITE;
    }
}
