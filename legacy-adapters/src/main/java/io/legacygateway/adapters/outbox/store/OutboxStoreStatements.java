package io.legacygateway.adapters.outbox.store;

import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.AGGREGATE_ID;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.CREATED_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.KEY;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.LAST_ERROR;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.LOCKED_BY;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.NEXT_RETRY_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.OCCURRED_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.ORDER;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.PUBLISHED_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.RETRY_COUNT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.STATUS;
import static io.legacygateway.adapters.outbox.store.OutboxConditions.binds;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRowReader;
import io.legacygateway.adapters.outbox.sql.Fragment;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Bind;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Param;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders every statement of an {@link OutboxStore} once, when the store is built: the claim and the ordering check,
 * the marks, the operators' reads and retry, the backlog sample and retention. The names are what the store, {@code
 * relay explain} and the golden files look statements up by; which exist depends on the mark mode and the mapped
 * columns.
 */
final class OutboxStoreStatements {

    private static final String LIST = OutboxStatements.LIST;

    private final OutboxConditions c;
    private final OutboxMapping mapping;
    private final MarkMode mode;
    private final OutboxRowReader reader;
    private final String table;
    private final String order;
    private final String key;
    private final OutboxStatements.Builder b = OutboxStatements.builder();

    private OutboxStoreStatements(OutboxConditions conditions, OutboxRowReader reader) {
        this.c = conditions;
        this.mapping = conditions.mapping();
        this.mode = mapping.markMode();
        this.reader = reader;
        this.table = conditions.table();
        this.order = c.q(mapping.column(ORDER));
        this.key = c.q(mapping.column(KEY));
    }

    /** The statements of a store with these conditions, read through {@code reader}. */
    static OutboxStatements render(OutboxConditions conditions, OutboxRowReader reader) {
        OutboxStoreStatements r = new OutboxStoreStatements(conditions, reader);
        r.cycle();
        Fragment failed = conditions.failed(conditions.table());
        r.operations(failed);
        if (r.mode != MarkMode.DELETE) {
            r.retry(failed);
        }
        if (OutboxStore.keepsPublishedRows(r.mapping)) {
            r.retention();
        }
        return r.b.build();
    }

    /** The claim, the ordering check and the marks of a cycle. */
    private void cycle() {
        Fragment claimable = c.claimable();
        b.add("claim", new Fragment(sql("outbox.claim", "columns", reader.selectList(), "table", table,
                "claimable", claimable.sql(), "order", order), binds(claimable, Bind.of(Param.LIMIT))));

        // the claim's continuation past the aggregates another relay holds back (OutboxRelay.claim)
        Fragment past = new Fragment(c.dialect().sql("outbox.claim.pastHeldBack", Map.of("order", c.col(table, ORDER),
                "aggregateId", c.col(table, AGGREGATE_ID), "aggregates", LIST)),
                binds(Bind.of(Param.LAST_ORDER), Bind.of(Param.HELD_BACK)));
        Fragment claimablePast = claimable.and(past);
        b.add("claimPastHeldBack", new Fragment(sql("outbox.claim", "columns", reader.selectList(), "table", table,
                "claimable", claimablePast.sql(), "order", order), binds(claimablePast, Bind.of(Param.LIMIT))));

        Fragment waiting = c.pending(table);
        Fragment atMost = Fragment.of(c.condition("condition.atMost", c.col(table, ORDER)), Bind.of(Param.LAST_ORDER));
        // the ordering check's first step: how many rows up to the claim's last read waiting on the row itself (parked
        // ones included), counted up to a bound, from the claim's index alone (AggregateOrder)
        Fragment onRow = c.waitingOnRow(table);
        Fragment countedUpTo = onRow == null ? atMost : onRow.and(atMost);
        b.add("waitingCountUpTo", new Fragment(sql("outbox.countOf", "select", sql("outbox.select.first",
                "columns", "1 AS gw_one", "table", table, "condition", countedUpTo.sql(), "order", order)),
                binds(countedUpTo, Bind.of(Param.LIMIT))));
        // its second step: the waiting rows up to the claim's last, in outbox order, a bounded number
        // (AggregateOrder), with what the check compares: aggregate, order, key as the claim's rows carry it
        Fragment upTo = waiting.and(atMost);
        String checked = String.join(", ", c.col(table, AGGREGATE_ID), c.col(table, ORDER),
                c.keyText(table) + " AS gw_key_text");
        b.add("waitingUpTo", new Fragment(sql("outbox.select.first", "columns", checked, "table", table,
                "condition", upTo.sql(), "order", order), binds(upTo, Bind.of(Param.LIMIT))));
        b.add("firstWaitingNotHeld", new Fragment(c.dialect().sql("outbox.firstWaitingNotHeld", Map.of(
                "aggregateId", c.q(mapping.column(AGGREGATE_ID)), "order", order, "key", key, "table", table,
                "pending", waiting.sql(), "aggregates", LIST, "claimed", LIST)),
                binds(waiting, Bind.of(Param.AGGREGATES), Bind.of(Param.LAST_ORDER), Bind.of(Param.CLAIMED))));
        if (c.blockAggregate()) {
            // FAILED rows hold back their aggregates too: read apart, through the aggregate's index (see failedBlocker)
            Fragment failed = c.failedBlocker(table);
            b.add("firstFailedBefore", new Fragment(c.dialect().sql("outbox.firstFailedBefore", Map.of(
                    "aggregateId", c.q(mapping.column(AGGREGATE_ID)), "order", order, "table", table,
                    "failed", failed.sql(), "aggregates", LIST)),
                    binds(failed, Bind.of(Param.AGGREGATES), Bind.of(Param.LAST_ORDER))));
        }
        if (c.dialect().claimsInMarkSavepoint()) {
            b.add("relock", new Fragment(sql("outbox.relock", "keyText", c.keyText(table), "table", table,
                    "condition", waiting.sql(), "key", key, "keys", LIST), binds(waiting, Bind.of(Param.KEYS))));
        }

        if (mode == MarkMode.DELETE) {
            b.add("markPublished", new Fragment(sql("outbox.deleteKeys", "table", table, "key", key, "keys", LIST),
                    binds(Bind.of(Param.KEYS))));
            return;
        }
        List<String> assignments = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        if (mode == MarkMode.STATUS) {
            assignments.add(c.assign(STATUS));
            values.add(Bind.constant("published status", mapping.statusBind(mapping.publishedValue())));
        }
        if (mapping.has(PUBLISHED_AT)) {
            assignments.add(c.assign(PUBLISHED_AT));
            values.add(c.timeFor(Param.AT, PUBLISHED_AT));
        }
        if (mapping.has(LOCKED_BY)) {
            assignments.add(c.assign(LOCKED_BY));
            values.add(Bind.of(Param.PUBLISHER));
        }
        b.add("markPublished", new Fragment(sql("outbox.markKeys", "table", table,
                "assignments", String.join(", ", assignments), "key", key, "keys", LIST),
                binds(values, Bind.of(Param.KEYS))));
        failure(false);
        failure(true);
    }

    /**
     * The update of a failed attempt: {@code recordFailure.retry} keeps the row waiting, {@code recordFailure.parked}
     * parks it (STATUS: the failed status, TIMESTAMP: the processed time). Absent when the row has no column to take.
     */
    private void failure(boolean parked) {
        List<String> assignments = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        if (parked && mode == MarkMode.STATUS) {
            assignments.add(c.assign(STATUS));
            values.add(Bind.constant("failed status", mapping.statusBind(mapping.failedValue())));
        }
        if (parked && mode == MarkMode.TIMESTAMP) {
            assignments.add(c.assign(PUBLISHED_AT));
            values.add(c.timeFor(Param.AT, PUBLISHED_AT));
        }
        if (mapping.has(LAST_ERROR)) {
            assignments.add(c.assign(LAST_ERROR));
            values.add(Bind.of(Param.REASON));
        }
        if (mapping.has(RETRY_COUNT)) {
            assignments.add(c.assign(RETRY_COUNT));
            values.add(Bind.of(Param.ATTEMPTS));
        }
        if (mapping.has(NEXT_RETRY_AT)) {
            if (parked) {
                assignments.add(c.assignNull(NEXT_RETRY_AT));
            } else {
                assignments.add(c.assign(NEXT_RETRY_AT));
                values.add(c.timeFor(Param.NEXT_RETRY_AT, NEXT_RETRY_AT));
            }
        }
        if (!assignments.isEmpty()) {
            b.add(parked ? "recordFailure.parked" : "recordFailure.retry", new Fragment(c.mark(assignments),
                    binds(values, Bind.of(Param.KEY))));
        }
    }

    /** The operators' reads: FAILED rows, waiting rows and the backlog sample. */
    private void operations(Fragment failed) {
        String failedColumns = failedColumns();
        b.add("failed.first", new Fragment(sql("outbox.select.first", "columns", failedColumns, "table", table,
                "condition", failed.sql(), "order", order), binds(failed, Bind.of(Param.LIMIT))));
        b.add("failed.byKeys", new Fragment(sql("outbox.select.byKeyText", "columns", failedColumns, "table", table,
                "condition", failed.sql(), "keyText", c.keyText(table), "keys", LIST),
                binds(failed, Bind.of(Param.KEY_TEXTS))));
        Fragment pending = c.pending(table);
        b.add("waiting", new Fragment(sql("outbox.select.first", "columns", reader.selectList(), "table", table,
                "condition", pending.sql(), "order", order), binds(pending, Bind.of(Param.LIMIT))));
        b.add("backlog.pending", new Fragment(sql("outbox.count", "table", table, "condition", pending.sql()),
                binds(pending)));
        OutboxColumn time = backlogTime(mapping);
        if (time != null) {
            b.add("backlog.oldest", new Fragment(sql("outbox.select.first", "columns", c.q(mapping.column(time)),
                    "table", table, "condition", pending.sql(), "order", order),
                    binds(pending, Bind.constant("one row", 1))));
        }
        if (mode == MarkMode.STATUS) {
            b.add("backlog.failed", new Fragment(sql("outbox.count", "table", table, "condition", failed.sql()),
                    binds(failed)));
        }
    }

    /** The columns a FAILED row is read with: the row's, and its reason where the table has a reason column. */
    private String failedColumns() {
        return reader.selectList() + (mapping.has(LAST_ERROR) ? ", " + c.q(mapping.column(LAST_ERROR)) : "");
    }

    /** An operator's retry: the row becomes pending with no attempts, only while it is still FAILED. */
    private void retry(Fragment failed) {
        List<String> assignments = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        if (mode == MarkMode.STATUS) {
            assignments.add(c.assign(STATUS));
            values.add(Bind.constant("pending status", mapping.statusBind(mapping.pendingValue())));
        } else {
            assignments.add(c.assignNull(PUBLISHED_AT));
        }
        if (mapping.has(RETRY_COUNT)) {
            assignments.add(c.assign(RETRY_COUNT));
            values.add(Bind.constant("no attempts", 0));
        }
        if (mapping.has(NEXT_RETRY_AT)) {
            assignments.add(c.assignNull(NEXT_RETRY_AT));
        }
        b.add("retry", new Fragment(sql("outbox.markIf", "table", table, "assignments",
                String.join(", ", assignments), "key", key, "condition", failed.sql()),
                binds(values, Bind.of(Param.KEY), failed)));
    }

    /** Retention: published rows older than the cutoff, selected and then deleted by key. */
    private void retention() {
        Fragment old = Fragment.of(c.condition("condition.before", c.col(table, PUBLISHED_AT)),
                c.timeFor(Param.CUTOFF, PUBLISHED_AT));
        old = mode == MarkMode.STATUS
                ? old.and(Fragment.of(c.condition("condition.equals", c.col(table, STATUS)),
                        Bind.constant("published status", mapping.statusBind(mapping.publishedValue()))))
                : old.and(c.log().failed(c.keyText(table)).not());
        b.add("retention.select", new Fragment(sql("outbox.select.first", "columns", key, "table", table,
                "condition", old.sql(), "order", order), binds(old, Bind.of(Param.LIMIT))));
        b.add("retention.delete", new Fragment(sql("retention.delete", "table", table, "key", key, "keys", LIST,
                "condition", old.sql()), binds(Bind.of(Param.KEYS), old)));
    }

    /** The column the backlog's oldest row is dated by; {@code null} when the table has none. */
    static OutboxColumn backlogTime(OutboxMapping mapping) {
        return mapping.has(CREATED_AT) ? CREATED_AT : mapping.has(OCCURRED_AT) ? OCCURRED_AT : null;
    }

    /** The dialect's statement {@code name} with these fragments, given as name, value, name, value, ... */
    private String sql(String name, String... fragments) {
        Map<String, String> named = new HashMap<>();
        for (int i = 0; i < fragments.length; i += 2) {
            named.put(fragments[i], fragments[i + 1]);
        }
        return c.dialect().sql(name, named);
    }
}
