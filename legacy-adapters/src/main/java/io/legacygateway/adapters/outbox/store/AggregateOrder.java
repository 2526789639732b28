package io.legacygateway.adapters.outbox.store;

import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.AGGREGATE_ID;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.ORDER;

import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Param;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import io.legacygateway.adapters.sql.Dialect;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
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
    private final OutboxStatements.Statement waitingCountUpTo;
    private final OutboxStatements.Statement waitingUpTo;
    /** {@code BLOCK_AGGREGATE}: the first FAILED row per claimed aggregate; {@code null} otherwise. */
    private final OutboxStatements.Statement failedBefore;

    AggregateOrder(JdbcTemplate jdbc, Dialect dialect, OutboxMapping mapping, OutboxStatements statements) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.mapping = mapping;
        this.check = statements.get("firstWaitingNotHeld");
        this.waitingCountUpTo = statements.get("waitingCountUpTo");
        this.waitingUpTo = statements.get("waitingUpTo");
        this.failedBefore = statements.find("firstFailedBefore").orElse(null);
    }

    /**
     * The claimed rows that must wait: for each aggregate, every claimed row that comes after a waiting row of the same
     * aggregate this claim does not hold (held by another relay, not due yet), or after a FAILED row of it with
     * {@code blockAggregate} (parked by another relay while this claim ran). Publishing it now would overtake that row.
     * Concurrent claims can interleave (relay one holds rows 1 and 3 of an aggregate, relay two row 2), so the check is
     * against the first waiting row not held here, not only against the aggregate's first waiting row.
     *
     * <p>Up to three steps. First a count of the rows up to the claim's last that read waiting on the row itself
     * ({@code waitingCountUpTo}, counted up to one more than the claim holds there, through the claim's index, no row
     * returned): when it is the number of claimed rows there, every waiting row ahead is the claim's own and nothing
     * can wait, which is what a single relay draining in order finds in nearly every cycle. The count includes rows
     * parked in the log (their row still reads waiting), so it can only be too high, never too low: a higher count
     * runs the next step, it never skips a row that waits. Then the waiting rows up to the claim's last, in outbox
     * order, at most {@link #readBound} of them (one constant statement): when the read was not cut short (another
     * relay's batch ahead of this one, a few rows not due yet), the first waiting row not held per aggregate is taken
     * from those rows. Only when more rows wait ahead than the bound does the per-aggregate statement run (two bind
     * lists of the batch's size: planned anew in each cycle, a range read per aggregate). With {@code blockAggregate}
     * another statement reads the claimed aggregates' first FAILED rows before the claim's last (a range of the
     * aggregate index each).
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
        if (last == null) {
            return Set.of();
        }
        Map<String, Object> firstNotHeld = waitingAhead(last, claimed, byAggregate, orderKind);
        if (firstNotHeld == null) {
            firstNotHeld = firstWaitingNotHeld(last, claimed, byAggregate);
        }
        if (failedBefore != null) {
            addFirstFailed(last, byAggregate, firstNotHeld, orderKind); // both reads above return a map of their own
        }
        if (firstNotHeld.isEmpty()) {
            return Set.of();
        }
        Set<OutboxRow> waitingRows = new LinkedHashSet<>();
        for (Map.Entry<String, Object> e : firstNotHeld.entrySet()) {
            Object other = e.getValue();
            for (OutboxRow r : byAggregate.get(e.getKey())) {
                if (orderKind.compare(r.order(), other) > 0) {
                    waitingRows.add(r);
                }
            }
        }
        return waitingRows;
    }

    /**
     * The first waiting row not held per claimed aggregate: none when only the claim's own rows wait up to
     * {@code last} (the check's first step), else from the waiting rows up to it (the second step), or {@code null}
     * when more than {@link #readBound} rows wait there.
     */
    private Map<String, Object> waitingAhead(Object last, List<OutboxRow> claimed,
                                             Map<String, List<OutboxRow>> byAggregate, ColumnKind orderKind) {
        Set<String> held = new HashSet<>();
        for (OutboxRow r : claimed) {
            if (r.order() != null && orderKind.compare(r.order(), last) <= 0) {
                held.add(r.keyText());
            }
        }
        Object lastBound = ColumnKind.bindable(last, dialect.bindsUuidAsText());
        if (onlyHeldRowsWaitUpTo(lastBound, held.size())) {
            return new HashMap<>();
        }
        int bound = readBound(held.size());
        Map<Param, Object> values = Map.of(Param.LAST_ORDER, lastBound, Param.LIMIT, bound);
        Map<String, Object> firstNotHeld = new HashMap<>();
        int[] read = {0};
        jdbc.query(waitingUpTo.sql(values), rs -> {
            read[0]++;
            String aggregate = aggregateId(rs.getString(1));
            if (aggregate != null && byAggregate.containsKey(aggregate) && !held.contains(rs.getString(3))) {
                // in outbox order: the first one read is the aggregate's first not held
                firstNotHeld.putIfAbsent(aggregate, orderKind.readComparable(rs, 2));
            }
        }, waitingUpTo.values(values));
        return read[0] < bound ? firstNotHeld : null;
    }

    /**
     * Whether the rows up to the claim's last that read waiting on the row are exactly the {@code held} ones: counted
     * up to one more than that, so that a long run of rows ahead (waiting for their retry, parked in the log) costs no
     * more than the claim's own.
     */
    private boolean onlyHeldRowsWaitUpTo(Object lastBound, int held) {
        Map<Param, Object> values = Map.of(Param.LAST_ORDER, lastBound, Param.LIMIT, held + 1);
        Long counted = jdbc.queryForObject(waitingCountUpTo.sql(values), Long.class, waitingCountUpTo.values(values));
        return counted != null && counted == held;
    }

    /**
     * How many waiting rows the second step reads: the claim's own up to its last, and room for as many again twice
     * (another relay's batch ahead of this one, rows not due yet), plus one to tell a full read from a cut one.
     */
    static int readBound(int held) {
        return 3 * held + 1;
    }

    private Map<String, Object> firstWaitingNotHeld(Object last, List<OutboxRow> claimed,
                                                    Map<String, List<OutboxRow>> byAggregate) {
        Map<Param, Object> values = Map.of(Param.AGGREGATES, byAggregate.keySet(),
                Param.LAST_ORDER, ColumnKind.bindable(last, dialect.bindsUuidAsText()),
                Param.CLAIMED, claimed.stream().map(OutboxRow::key).toList());
        ColumnKind orderKind = mapping.kind(ORDER);
        Map<String, Object> firstNotHeld = new HashMap<>();
        jdbc.query(check.sql(values), rs -> {
            firstNotHeld.put(aggregateId(rs.getString(1)), orderKind.readComparable(rs, 2));
        }, check.values(values));
        return firstNotHeld;
    }

    /** Lowers each aggregate's first row not held to its first FAILED row before {@code last}, if earlier. */
    private void addFirstFailed(Object last, Map<String, List<OutboxRow>> byAggregate, Map<String, Object> firstNotHeld,
                                ColumnKind orderKind) {
        Map<Param, Object> values = Map.of(Param.AGGREGATES, byAggregate.keySet(),
                Param.LAST_ORDER, ColumnKind.bindable(last, dialect.bindsUuidAsText()));
        jdbc.query(failedBefore.sql(values), rs -> {
            Object failed = orderKind.readComparable(rs, 2);
            firstNotHeld.merge(aggregateId(rs.getString(1)), failed,
                    (held, f) -> orderKind.compare(f, held) < 0 ? f : held);
        }, failedBefore.values(values));
    }

    /** The aggregate id as the row reader renders it (CHAR padding removed), so that the keys match. */
    private String aggregateId(String read) {
        return read != null && mapping.kind(AGGREGATE_ID) == ColumnKind.CHAR ? read.stripTrailing() : read;
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
