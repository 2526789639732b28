package io.legacygateway.adapters.outbox.store;

import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.AGGREGATE_ID;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.NEXT_RETRY_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.ORDER;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.PUBLISHED_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.STATUS;

import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRowReader;
import io.legacygateway.adapters.outbox.sql.Fragment;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Bind;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Param;
import io.legacygateway.adapters.sql.Dialect;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The row states of an {@link OutboxStore}'s table as SQL conditions: pending, FAILED, not due, claimable, and the
 * assignments of its marks. Each is a {@link Fragment} qualified with the table name or an alias, so that subqueries
 * over the same table work; binds are {@link Bind} values (constants or run-time values). Composed once, when the
 * store renders its statements, never in a cycle.
 */
final class OutboxConditions {

    /** The alias of the table in the claim's subquery for a blocking row. */
    static final String T_ALIAS = "gw_b";
    /** A status value safe to write as a literal in every dialect (no quote, no backslash). */
    private static final Pattern PLAIN_WORD = Pattern.compile("[A-Za-z0-9_]{1,64}");

    private final Dialect dialect;
    private final OutboxMapping mapping;
    private final MarkMode mode;
    private final String table;
    /** The log of failed attempts; {@code null} when the row keeps them. */
    private final RejectionLog log;
    /** The log that parks refusing rows; {@code null} when there is none. */
    private final RejectionLog lastResort;
    private final boolean retries;
    private final boolean blockAggregate;
    private final boolean attemptsOnRow;

    OutboxConditions(Dialect dialect, OutboxMapping mapping, String table, RejectionLog log, RejectionLog lastResort,
                     boolean retries, boolean blockAggregate) {
        this.dialect = dialect;
        this.mapping = mapping;
        this.mode = mapping.markMode();
        this.table = table;
        this.log = log;
        this.lastResort = lastResort;
        this.retries = retries;
        this.blockAggregate = blockAggregate;
        this.attemptsOnRow = OutboxStore.attemptsOnRow(mapping);
    }

    Dialect dialect() {
        return dialect;
    }

    OutboxMapping mapping() {
        return mapping;
    }

    /** The table's quoted name. */
    String table() {
        return table;
    }

    RejectionLog log() {
        return log;
    }

    String col(String qualifier, OutboxColumn c) {
        return qualifier + "." + q(mapping.column(c));
    }

    String keyText(String qualifier) {
        return OutboxRowReader.keyText(dialect, mapping, qualifier);
    }

    String condition(String name, String column) {
        return dialect.sql(name, Map.of("column", column));
    }

    /**
     * {@code column = value} for a status value. A plain word or number is written into the statement as a literal,
     * not bound: a partial index on the pending status ({@code WHERE status = 'PENDING'}) only serves a statement
     * whose text implies its predicate, and a bound value does not under a generic (cached) plan. Any other value is
     * bound.
     */
    Fragment statusIs(String t, String value, String meaning) {
        Fragment v = statusValue(value, meaning);
        if (v.binds().isEmpty()) {
            return Fragment.of(dialect.sql("condition.equalsLiteral", Map.of("column", col(t, STATUS),
                    "literal", v.sql())));
        }
        return new Fragment(condition("condition.equals", col(t, STATUS)), v.binds());
    }

    /** A status value as {@link #statusIs} writes it: a literal when it is a plain word or a number, else a bind. */
    private Fragment statusValue(String value, String meaning) {
        Object bind = mapping.statusBind(value);
        if (bind instanceof Long n) {
            return Fragment.of(n.toString());
        }
        return PLAIN_WORD.matcher(value).matches() ? Fragment.of("'" + value + "'")
                : Fragment.of("?", Bind.constant(meaning, bind));
    }

    /** A row waiting to be published (also while it waits for a retry); never one parked in the log. */
    Fragment pending(String t) {
        Fragment waiting = waitingOnRow(t);
        if (lastResort == null) {
            return waiting;
        }
        Fragment notParked = lastResort.failed(keyText(t)).not();
        return waiting == null ? notParked : waiting.and(notParked);
    }

    /**
     * What the row itself says of a waiting row, without the log: the pending status (STATUS), no published time
     * (TIMESTAMP); {@code null} in DELETE mode, where every row waits. Every pending row matches it, and so does a row
     * parked in the log (its row still reads waiting): a count of it is at least the count of pending rows.
     */
    Fragment waitingOnRow(String t) {
        return switch (mode) {
            case STATUS -> statusIs(t, mapping.pendingValue(), "pending status");
            case TIMESTAMP -> Fragment.of(condition("condition.isNull", col(t, PUBLISHED_AT)));
            case DELETE -> null;
            case ZERO_WRITE -> throw new IllegalStateException();
        };
    }

    /**
     * A row parked as FAILED: by its status (STATUS), or by its entry in the log (every mode; the only record of a row
     * that refused the FAILED write, and in TIMESTAMP mode what tells a FAILED row from a published one). In STATUS
     * mode an entry counts only while the row is still pending: an operator may have set a refusing row's status by
     * hand.
     */
    Fragment failed(String t) {
        Fragment inLog = lastResort == null ? null : lastResort.failed(keyText(t));
        return switch (mode) {
            case STATUS -> {
                Fragment status = statusIs(t, mapping.failedValue(), "failed status");
                yield inLog == null ? status
                        : status.or(statusIs(t, mapping.pendingValue(), "pending status").and(inLog));
            }
            case TIMESTAMP, DELETE -> inLog;
            case ZERO_WRITE -> throw new IllegalStateException();
        };
    }

    /** A row that waits for a later retry; {@code null} when no row can. */
    private Fragment notDue(String t) {
        Fragment f = null;
        if (mapping.has(NEXT_RETRY_AT)) {
            f = Fragment.of(condition("condition.after", col(t, NEXT_RETRY_AT)), nowFor(NEXT_RETRY_AT));
        }
        if (log != null && retries && !attemptsOnRow) {
            Fragment logged = log.notDue(keyText(t));
            f = f == null ? logged : f.or(logged);
        }
        return f;
    }

    /** Claimable now: waiting, due, and not behind a blocking row of its aggregate. */
    Fragment claimable() {
        Fragment c = pending(table);
        if (mapping.has(NEXT_RETRY_AT)) {
            c = c.and(Fragment.of(dialect.sql("outbox.claimable.retryDue",
                    Map.of("nextRetryAt", col(table, NEXT_RETRY_AT))), nowFor(NEXT_RETRY_AT)));
        }
        if (log != null && retries && !attemptsOnRow) {
            c = c.and(log.notDue(keyText(table)).not());
        }
        Fragment blocker = null;
        Fragment waitingLater = notDue(T_ALIAS);
        if (waitingLater != null) {
            Fragment waiting = pending(T_ALIAS);
            if (waiting != null && mapping.has(NEXT_RETRY_AT)) {
                // the row's next-retry column (its index) finds the few blockers; see outbox.blockedBy.waiting
                waiting = new Fragment(dialect.sql("outbox.blockedBy.waiting", Map.of("waiting", waiting.sql())),
                        waiting.binds());
            }
            blocker = waiting == null ? waitingLater : waiting.and(waitingLater);
        }
        if (blocker != null) {
            c = c.and(blockedBy(blocker).not());
        }
        if (blockAggregate) {
            // a search of its own: as one OR with the retrying row's, no index serves both (see outbox.blockedBy.failed)
            c = c.and(blockedBy(failedBlocker(T_ALIAS)).not());
        }
        return c;
    }

    /** An earlier row of the same aggregate that matches {@code blocker} (an alias {@link #T_ALIAS} condition). */
    private Fragment blockedBy(Fragment blocker) {
        return new Fragment(dialect.sql("outbox.blockedBy", Map.of("table", table,
                "aggregateId", q(mapping.column(AGGREGATE_ID)), "order", q(mapping.column(ORDER)),
                "outer", table, "blocker", blocker.sql())), blocker.binds());
    }

    /**
     * A FAILED row that holds back the later rows of its aggregate ({@code BLOCK_AGGREGATE}): the claim's blocker and
     * the ordering check's {@code firstFailedBefore}. In STATUS mode with a log that parks rows, a FAILED row has one
     * of two statuses (FAILED, or pending with its entry in the log): the condition then names both statuses as such,
     * which the aggregate's index serves (aggregate, status, order), and the dialect may hide the rest of it from its
     * planner ({@code outbox.blockedBy.failed}).
     */
    Fragment failedBlocker(String t) {
        Fragment failed = failed(t);
        if (mode != MarkMode.STATUS || lastResort == null) {
            return failed;
        }
        Fragment statuses = statusIn(t, mapping.failedValue(), "failed status", mapping.pendingValue(),
                "pending status");
        return new Fragment(dialect.sql("outbox.blockedBy.failed", Map.of("statuses", statuses.sql(),
                "failed", failed.sql())), binds(statuses, failed));
    }

    /** {@code column IN (a, b)} for two status values, each written as {@link #statusIs} writes it. */
    private Fragment statusIn(String t, String a, String aMeaning, String b, String bMeaning) {
        Fragment first = statusValue(a, aMeaning);
        Fragment second = statusValue(b, bMeaning);
        return new Fragment(dialect.sql("condition.in", Map.of("column", col(t, STATUS),
                "values", first.sql() + ", " + second.sql())), binds(first, second));
    }

    /** Whether a FAILED row holds back the later rows of its aggregate ({@code BLOCK_AGGREGATE}). */
    boolean blockAggregate() {
        return blockAggregate;
    }

    /** A time given at run time, bound as {@code column} takes it. */
    Bind timeFor(Param param, OutboxColumn column) {
        ColumnKind kind = mapping.kind(column);
        return Bind.of(param, param.meaning() + " as " + mapping.column(column) + " takes it",
                v -> kind.bindInstant((Instant) v, mapping.naiveZone()));
    }

    private Bind nowFor(OutboxColumn column) {
        return timeFor(Param.NOW, column);
    }

    // ---- assignments of the marks

    /** The update of the listed assignments, by key. */
    String mark(List<String> assignments) {
        return dialect.sql("outbox.mark", Map.of("table", table, "assignments", String.join(", ", assignments),
                "key", q(mapping.column(OutboxColumn.KEY))));
    }

    String assign(OutboxColumn column) {
        return dialect.sql("assign", Map.of("column", q(mapping.column(column))));
    }

    String assignNull(OutboxColumn column) {
        return dialect.sql("assign.null", Map.of("column", q(mapping.column(column))));
    }

    String q(String identifier) {
        return dialect.quote(identifier);
    }

    /** The binds of a statement: each argument a {@link Bind}, a {@link Fragment}'s binds, or a list of binds. */
    static List<Object> binds(Object... parts) {
        List<Object> all = new ArrayList<>();
        for (Object p : parts) {
            if (p instanceof Fragment f) {
                all.addAll(f.binds());
            } else if (p instanceof Collection<?> c) {
                all.addAll(c);
            } else if (p != null) {
                all.add(p);
            }
        }
        return all;
    }
}
