package io.legacygateway.adapters.outbox;

import static io.legacygateway.adapters.outbox.OutboxColumn.AGGREGATE_ID;
import static io.legacygateway.adapters.outbox.OutboxColumn.ORDER;

import io.legacygateway.adapters.outbox.OutboxStatements.Param;
import io.legacygateway.adapters.sql.Dialect;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The ordering check of an {@link OutboxStore}'s claim: which claimed rows come after a waiting row of their aggregate
 * that the claim does not hold. Reads in the caller's transaction, with the store's {@code firstWaitingNotHeld}.
 */
final class AggregateOrder {

    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    private final OutboxMapping mapping;
    private final OutboxStatements.Statement check;
    private final OutboxStatements.Statement waitingUpTo;

    AggregateOrder(JdbcTemplate jdbc, Dialect dialect, OutboxMapping mapping, OutboxStatements statements) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.mapping = mapping;
        this.check = statements.get("firstWaitingNotHeld");
        this.waitingUpTo = statements.get("waitingUpTo");
    }

    /**
     * The claimed rows that must wait: for each aggregate, every claimed row that comes after a waiting row of the same
     * aggregate this claim does not hold (held by another relay, not due yet, or FAILED with {@code blockAggregate}).
     * Publishing it now would overtake that row. Concurrent claims can interleave (relay one holds rows 1 and 3 of an
     * aggregate, relay two row 2), so the check is against the first waiting row not held here, not only against the
     * aggregate's first waiting row.
     */
    Set<OutboxRow> behindOtherRows(List<OutboxRow> claimed) {
        Map<String, List<OutboxRow>> byAggregate = new HashMap<>();
        for (OutboxRow r : claimed) {
            if (r.aggregateId() != null) {
                byAggregate.computeIfAbsent(r.aggregateId(), k -> new ArrayList<>()).add(r);
            }
        }
        if (byAggregate.isEmpty()) {
            return Set.of();
        }
        ColumnKind orderKind = mapping.kind(ORDER);
        Object last = lastOrder(claimed, orderKind);
        if (last == null || holdsEveryWaitingRowUpTo(last, claimed, orderKind)) {
            return Set.of();
        }
        Map<Param, Object> values = Map.of(Param.AGGREGATES, byAggregate.keySet(),
                Param.LAST_ORDER, ColumnKind.bindable(last, dialect.bindsUuidAsText()),
                Param.CLAIMED, claimed.stream().map(OutboxRow::key).toList());
        Map<String, Object> firstNotHeld = new HashMap<>();
        jdbc.query(check.sql(values), rs -> {
            // the aggregate id as the row reader renders it (CHAR padding removed), so the keys match
            firstNotHeld.put(mapping.kind(AGGREGATE_ID) == ColumnKind.CHAR ? rs.getString(1).stripTrailing()
                    : rs.getString(1), orderKind.readComparable(rs, 2));
        }, check.values(values));
        Set<OutboxRow> waitingRows = new LinkedHashSet<>();
        byAggregate.forEach((aggregate, rows) -> {
            Object other = firstNotHeld.get(aggregate);
            if (other != null) {
                rows.stream().filter(r -> orderKind.compare(r.order(), other) > 0).forEach(waitingRows::add);
            }
        });
        return waitingRows;
    }

    /**
     * Whether the claim holds every waiting row up to {@code last}: then none of its rows comes after a waiting row it
     * does not hold, which is what a single relay draining in order finds in nearly every cycle. A short read of the
     * waiting rows in outbox order, at most one more than the claim holds up there, instead of the per-aggregate
     * check (two bind lists of the batch's size: a plan per cycle and a range read per aggregate).
     */
    private boolean holdsEveryWaitingRowUpTo(Object last, List<OutboxRow> claimed, ColumnKind orderKind) {
        int held = 0;
        for (OutboxRow r : claimed) {
            if (r.order() != null && orderKind.compare(r.order(), last) <= 0) {
                held++;
            }
        }
        Map<Param, Object> values = Map.of(Param.LAST_ORDER, ColumnKind.bindable(last, dialect.bindsUuidAsText()),
                Param.LIMIT, held + 1);
        int[] waiting = {0};
        jdbc.query(waitingUpTo.sql(values), rs -> {
            waiting[0]++;
        }, waitingUpTo.values(values));
        return waiting[0] == held;
    }

    /**
     * The order of the last claimed row with an aggregate. Only a waiting row before it can hold a claimed row back:
     * bounding the read by it keeps the check to the rows this claim skipped, instead of every waiting row of each
     * claimed aggregate.
     */
    private static Object lastOrder(List<OutboxRow> claimed, ColumnKind orderKind) {
        Object last = null;
        for (OutboxRow r : claimed) {
            if (r.aggregateId() != null && r.order() != null && (last == null || orderKind.compare(r.order(), last) > 0)) {
                last = r.order();
            }
        }
        return last;
    }
}
