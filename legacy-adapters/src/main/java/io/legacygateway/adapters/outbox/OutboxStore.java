package io.legacygateway.adapters.outbox;

import static io.legacygateway.adapters.outbox.OutboxColumn.AGGREGATE_ID;
import static io.legacygateway.adapters.outbox.OutboxColumn.CREATED_AT;
import static io.legacygateway.adapters.outbox.OutboxColumn.KEY;
import static io.legacygateway.adapters.outbox.OutboxColumn.LAST_ERROR;
import static io.legacygateway.adapters.outbox.OutboxColumn.LOCKED_BY;
import static io.legacygateway.adapters.outbox.OutboxColumn.NEXT_RETRY_AT;
import static io.legacygateway.adapters.outbox.OutboxColumn.OCCURRED_AT;
import static io.legacygateway.adapters.outbox.OutboxColumn.ORDER;
import static io.legacygateway.adapters.outbox.OutboxColumn.PUBLISHED_AT;
import static io.legacygateway.adapters.outbox.OutboxColumn.RETRY_COUNT;
import static io.legacygateway.adapters.outbox.OutboxColumn.STATUS;

import io.legacygateway.adapters.outbox.OutboxStatements.Bind;
import io.legacygateway.adapters.outbox.OutboxStatements.Param;
import io.legacygateway.adapters.sql.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceUtils;

/**
 * Claims and marks rows of one outbox table in the mark modes that write to it ({@link MarkMode#STATUS},
 * {@link MarkMode#TIMESTAMP}, {@link MarkMode#DELETE}). Every cycle method must run inside the caller's database
 * transaction on the same {@link DataSource}: the row locks taken by {@link #claim} are what keeps two relays apart,
 * and they last until that transaction ends. Marks written in that transaction become visible only when it commits.
 *
 * <p>Guarantees: a row is returned by {@code claim} only while no other open transaction holds it ({@code FOR UPDATE
 * SKIP LOCKED}); {@link #behindOtherRows} removes rows whose aggregate has an earlier waiting row this claim does not
 * hold, so that two relays never publish one aggregate out of order. Not guaranteed: order between rows whose
 * transactions commit out of insertion order (the visibility gap; see the README).
 *
 * <p>Failed attempts: a row that waits for its next retry is not claimed before its time, and neither are the later
 * rows of its aggregate (the claim skips them, so they never crowd out other aggregates' rows). The attempt count and
 * next retry time live on the row when it has {@code retry_count} and {@code next_retry_at} columns, otherwise in the
 * {@link RejectionLog}. A parked (FAILED) row: STATUS sets the failed status; TIMESTAMP stamps the processed time and
 * records the row as FAILED in the log (which is what tells it from a published row); DELETE leaves it in place,
 * recorded in the log. With {@code blockAggregate} (failedRowPolicy BLOCK_AGGREGATE) a FAILED row also counts as an
 * earlier waiting row of its aggregate, in the claim and in {@link #behindOtherRows}, until an operator retries it.
 *
 * <p>A write the database refuses for one row (SQLSTATE of a data exception, a constraint, or a trigger's raise; see
 * {@link Dialect#refusedRows}) is charged to that row, never to the batch: {@link #mark} marks the others and parks the
 * offender as FAILED with the database's reason, on the row where the row takes that write, otherwise in the
 * {@link RejectionLog}, whose FAILED entries the claim skips in every mode. Savepoints, not fresh transactions, isolate
 * the offender: the cycle's transaction holds the claim's row locks, which a second transaction would wait for, and on
 * PostgreSQL a failed statement aborts the whole transaction unless it is rolled back to a savepoint.
 */
public final class OutboxStore implements OutboxSource {

    private static final String T_ALIAS = "gw_b";
    /** A status value safe to write as a literal in every dialect (no quote, no backslash). */
    private static final Pattern PLAIN_WORD = Pattern.compile("[A-Za-z0-9_]{1,64}");

    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    private final OutboxMapping mapping;
    private final MarkMode mode;
    private final OutboxRowReader reader;
    private final RejectionLog log;
    /** Where a row is parked when the database refuses every write to it: the log, when its table exists. */
    private final RejectionLog lastResort;
    private final int reasonLength;
    private final boolean retries;
    private final boolean blockAggregate;
    private final boolean attemptsOnRow;
    private final String table;
    /** Every statement of this store, rendered once here; cycles only bind values. */
    private final OutboxStatements statements;
    /** Keys of the last claim that have an entry in the log (cleared when published). Cycles are sequential. */
    private volatile Set<String> recorded = Set.of();

    /**
     * @param log            the gateway's record of failed rows, in this datasource; required when
     *                       {@link #needsRejectionLog} says so. Given otherwise, it only parks rows that refuse every
     *                       write (without it such a row fails the cycle)
     * @param retries        whether failed rows are attempted again (maxAttempts above 1)
     * @param blockAggregate whether a FAILED row holds back the later rows of its aggregate
     */
    public OutboxStore(DataSource dataSource, Dialect dialect, OutboxMapping mapping, RejectionLog log,
                       boolean retries, boolean blockAggregate) {
        this.mode = mapping.markMode();
        if (!mode.writesToTable()) {
            throw new IllegalArgumentException(mode + " does not claim rows; use " + ZeroWriteReader.class.getSimpleName());
        }
        boolean needed = needsRejectionLog(mapping, retries);
        if ((needed && log == null) || (log != null && log.dataSource() != dataSource)) {
            throw new IllegalArgumentException("markMode " + mode + " needs the rejection log in the table's datasource");
        }
        this.dataSource = dataSource;
        this.jdbc = new JdbcTemplate(dataSource);
        this.dialect = dialect;
        this.mapping = mapping;
        this.table = dialect.quote(mapping.table().name());
        this.reader = new OutboxRowReader(dialect, mapping, table);
        this.log = needed ? log : null;
        this.lastResort = log;
        // a longer reason than the column holds would make the row refuse its failure record
        int reasonColumn = mapping.has(LAST_ERROR)
                ? mapping.table().column(mapping.column(LAST_ERROR)).orElseThrow().size() : 0;
        this.reasonLength = reasonColumn > 0 ? Math.min(reasonColumn, RejectionLog.MAX_REASON)
                : RejectionLog.MAX_REASON;
        this.retries = retries;
        this.blockAggregate = blockAggregate;
        this.attemptsOnRow = attemptsOnRow(mapping);

        this.statements = render();
    }

    /** Whether failed attempts and next retry times are kept on the row itself. */
    public static boolean attemptsOnRow(OutboxMapping mapping) {
        return (mapping.markMode() == MarkMode.STATUS || mapping.markMode() == MarkMode.TIMESTAMP)
                && mapping.has(RETRY_COUNT) && mapping.has(NEXT_RETRY_AT);
    }

    /**
     * Whether this mapping needs the gateway's {@link RejectionLog}: always in TIMESTAMP, DELETE and ZERO_WRITE mode;
     * in STATUS mode when the table has no reason column or, with retries, no retry-count and next-retry columns.
     */
    public static boolean needsRejectionLog(OutboxMapping mapping, boolean retries) {
        if (mapping.markMode() != MarkMode.STATUS) {
            return true;
        }
        return !mapping.has(LAST_ERROR) || (retries && !attemptsOnRow(mapping));
    }

    /** The parameter that makes the log necessary, for error messages. */
    public static String rejectionLogParameter(OutboxMapping mapping, boolean retries) {
        if (mapping.markMode() != MarkMode.STATUS) {
            return "markMode";
        }
        if (!mapping.has(LAST_ERROR)) {
            return LAST_ERROR.parameter();
        }
        return mapping.has(RETRY_COUNT) ? NEXT_RETRY_AT.parameter() : RETRY_COUNT.parameter();
    }

    @Override
    public OutboxMapping mapping() {
        return mapping;
    }

    public Dialect dialect() {
        return dialect;
    }

    @Override
    public DataSource transactionDataSource() {
        return dataSource;
    }

    @Override
    public boolean keepsOrderPerAggregate() {
        return true;
    }

    // ---- conditions, qualified with the table name or an alias so that subqueries over the same table work. They
    // are composed once, in render(); their binds are OutboxStatements.Bind values (constants or run-time values).

    private String col(String qualifier, OutboxColumn c) {
        return qualifier + "." + q(mapping.column(c));
    }

    private String keyText(String qualifier) {
        return OutboxRowReader.keyText(dialect, mapping, qualifier);
    }

    private String condition(String name, String column) {
        return dialect.sql(name, Map.of("column", column));
    }

    /**
     * {@code column = value} for a status value. A plain word or number is written into the statement as a literal,
     * not bound: a partial index on the pending status ({@code WHERE status = 'PENDING'}) only serves a statement
     * whose text implies its predicate, and a bound value does not under a generic (cached) plan. Any other value is
     * bound.
     */
    private Fragment statusIs(String t, String value, String meaning) {
        Object bind = mapping.statusBind(value);
        if (bind instanceof Long || PLAIN_WORD.matcher(value).matches()) {
            String literal = bind instanceof Long n ? n.toString() : "'" + value + "'";
            return Fragment.of(dialect.sql("condition.equalsLiteral", Map.of("column", col(t, STATUS),
                    "literal", literal)));
        }
        return Fragment.of(condition("condition.equals", col(t, STATUS)), Bind.constant(meaning, bind));
    }

    /** A row waiting to be published (also while it waits for a retry); never one parked in the log. */
    private Fragment pending(String t) {
        Fragment waiting = switch (mode) {
            case STATUS -> statusIs(t, mapping.pendingValue(), "pending status");
            case TIMESTAMP -> Fragment.of(condition("condition.isNull", col(t, PUBLISHED_AT)));
            case DELETE -> null;
            case ZERO_WRITE -> throw new IllegalStateException();
        };
        if (lastResort == null) {
            return waiting;
        }
        Fragment notParked = lastResort.failed(keyText(t)).not();
        return waiting == null ? notParked : waiting.and(notParked);
    }

    /**
     * A row parked as FAILED: by its status (STATUS), or by its entry in the log (every mode; the only record of a row
     * that refused the FAILED write, and in TIMESTAMP mode what tells a FAILED row from a published one). In STATUS
     * mode an entry counts only while the row is still pending: an operator may have set a refusing row's status by
     * hand.
     */
    private Fragment failed(String t) {
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
    private Fragment claimable() {
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
            blocker = pending(T_ALIAS).and(waitingLater);
        }
        if (blockAggregate) {
            blocker = blocker == null ? failed(T_ALIAS) : blocker.or(failed(T_ALIAS));
        }
        if (blocker != null) {
            c = c.and(new Fragment(dialect.sql("outbox.blockedBy", Map.of("table", table,
                    "aggregateId", q(mapping.column(AGGREGATE_ID)), "order", q(mapping.column(ORDER)),
                    "outer", table, "blocker", blocker.sql())), blocker.binds()).not());
        }
        return c;
    }

    /** What counts as an earlier waiting row for the ordering check. */
    private Fragment waiting() {
        return blockAggregate ? pending(table).or(failed(table)) : pending(table);
    }

    /** A time given at run time, bound as {@code column} takes it. */
    private Bind timeFor(Param param, OutboxColumn column) {
        ColumnKind kind = mapping.kind(column);
        return Bind.of(param, param.meaning() + " as " + mapping.column(column) + " takes it",
                v -> kind.bindInstant((Instant) v, mapping.naiveZone()));
    }

    private Bind nowFor(OutboxColumn column) {
        return timeFor(Param.NOW, column);
    }

    // ---- rendering: every statement once, when the store is built

    /** The binds of a statement: each argument a {@link Bind}, a {@link Fragment}'s binds, or a list of binds. */
    private static List<Object> binds(Object... parts) {
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

    private OutboxStatements render() {
        OutboxStatements.Builder b = OutboxStatements.builder();
        String order = q(mapping.column(ORDER));
        String key = q(mapping.column(KEY));
        String list = OutboxStatements.LIST;

        Fragment claimable = claimable();
        b.add("claim", new Fragment(dialect.sql("outbox.claim", Map.of("columns", reader.selectList(), "table", table,
                "claimable", claimable.sql(), "order", order)), binds(claimable, Bind.of(Param.LIMIT))));

        Fragment waiting = waiting();
        b.add("firstWaitingNotHeld", new Fragment(dialect.sql("outbox.firstWaitingNotHeld", Map.of(
                "aggregateId", q(mapping.column(AGGREGATE_ID)), "order", order, "key", key, "table", table,
                "pending", waiting.sql(), "aggregates", list, "claimed", list)),
                binds(waiting, Bind.of(Param.AGGREGATES), Bind.of(Param.LAST_ORDER), Bind.of(Param.CLAIMED))));

        if (mode == MarkMode.DELETE) {
            b.add("markPublished", new Fragment(dialect.sql("outbox.deleteKeys", Map.of("table", table, "key", key,
                    "keys", list)), binds(Bind.of(Param.KEYS))));
        } else {
            List<String> assignments = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            if (mode == MarkMode.STATUS) {
                assignments.add(assign(STATUS));
                values.add(Bind.constant("published status", mapping.statusBind(mapping.publishedValue())));
            }
            if (mapping.has(PUBLISHED_AT)) {
                assignments.add(assign(PUBLISHED_AT));
                values.add(timeFor(Param.AT, PUBLISHED_AT));
            }
            if (mapping.has(LOCKED_BY)) {
                assignments.add(assign(LOCKED_BY));
                values.add(Bind.of(Param.PUBLISHER));
            }
            b.add("markPublished", new Fragment(dialect.sql("outbox.markKeys", Map.of("table", table,
                    "assignments", String.join(", ", assignments), "key", key, "keys", list)),
                    binds(values, Bind.of(Param.KEYS))));
            renderFailure(b, false);
            renderFailure(b, true);
        }

        Fragment failed = failed(table);
        b.add("failed.first", new Fragment(dialect.sql("outbox.select.first", Map.of("columns", failedColumns(),
                "table", table, "condition", failed.sql(), "order", order)), binds(failed, Bind.of(Param.LIMIT))));
        b.add("failed.byKeys", new Fragment(dialect.sql("outbox.select.byKeyText", Map.of("columns", failedColumns(),
                "table", table, "condition", failed.sql(), "keyText", keyText(table), "keys", list)),
                binds(failed, Bind.of(Param.KEY_TEXTS))));
        Fragment pending = pending(table);
        b.add("waiting", new Fragment(dialect.sql("outbox.select.first", Map.of("columns", reader.selectList(),
                "table", table, "condition", pending.sql(), "order", order)), binds(pending, Bind.of(Param.LIMIT))));
        b.add("backlog.pending", new Fragment(dialect.sql("outbox.count", Map.of("table", table,
                "condition", pending.sql())), binds(pending)));
        OutboxColumn time = mapping.has(CREATED_AT) ? CREATED_AT : mapping.has(OCCURRED_AT) ? OCCURRED_AT : null;
        if (time != null) {
            b.add("backlog.oldest", new Fragment(dialect.sql("outbox.select.first", Map.of("columns",
                    q(mapping.column(time)), "table", table, "condition", pending.sql(), "order", order)),
                    binds(pending, Bind.constant("one row", 1))));
        }
        if (mode == MarkMode.STATUS) {
            b.add("backlog.failed", new Fragment(dialect.sql("outbox.count", Map.of("table", table,
                    "condition", failed.sql())), binds(failed)));
        }
        if (mode != MarkMode.DELETE) {
            List<String> assignments = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            if (mode == MarkMode.STATUS) {
                assignments.add(assign(STATUS));
                values.add(Bind.constant("pending status", mapping.statusBind(mapping.pendingValue())));
            } else {
                assignments.add(assignNull(PUBLISHED_AT));
            }
            if (mapping.has(RETRY_COUNT)) {
                assignments.add(assign(RETRY_COUNT));
                values.add(Bind.constant("no attempts", 0));
            }
            if (mapping.has(NEXT_RETRY_AT)) {
                assignments.add(assignNull(NEXT_RETRY_AT));
            }
            b.add("retry", new Fragment(dialect.sql("outbox.markIf", Map.of("table", table, "assignments",
                    String.join(", ", assignments), "key", key, "condition", failed.sql())),
                    binds(values, Bind.of(Param.KEY), failed)));
        }
        if (keepsPublishedRows()) {
            Fragment old = Fragment.of(condition("condition.before", col(table, PUBLISHED_AT)),
                    timeFor(Param.CUTOFF, PUBLISHED_AT));
            old = mode == MarkMode.STATUS
                    ? old.and(Fragment.of(condition("condition.equals", col(table, STATUS)),
                            Bind.constant("published status", mapping.statusBind(mapping.publishedValue()))))
                    : old.and(log.failed(keyText(table)).not());
            b.add("retention.select", new Fragment(dialect.sql("outbox.select.first", Map.of("columns", key,
                    "table", table, "condition", old.sql(), "order", order)), binds(old, Bind.of(Param.LIMIT))));
            b.add("retention.delete", new Fragment(dialect.sql("retention.delete", Map.of("table", table, "key", key,
                    "keys", list, "condition", old.sql())), binds(Bind.of(Param.KEYS), old)));
        }
        return b.build();
    }

    /**
     * The update of a failed attempt: {@code recordFailure.retry} keeps the row waiting, {@code recordFailure.parked}
     * parks it (STATUS: the failed status, TIMESTAMP: the processed time). Absent when the row has no column to take.
     */
    private void renderFailure(OutboxStatements.Builder b, boolean parked) {
        List<String> assignments = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        if (parked && mode == MarkMode.STATUS) {
            assignments.add(assign(STATUS));
            values.add(Bind.constant("failed status", mapping.statusBind(mapping.failedValue())));
        }
        if (parked && mode == MarkMode.TIMESTAMP) {
            assignments.add(assign(PUBLISHED_AT));
            values.add(timeFor(Param.AT, PUBLISHED_AT));
        }
        if (mapping.has(LAST_ERROR)) {
            assignments.add(assign(LAST_ERROR));
            values.add(Bind.of(Param.REASON));
        }
        if (mapping.has(RETRY_COUNT)) {
            assignments.add(assign(RETRY_COUNT));
            values.add(Bind.of(Param.ATTEMPTS));
        }
        if (mapping.has(NEXT_RETRY_AT)) {
            if (parked) {
                assignments.add(assignNull(NEXT_RETRY_AT));
            } else {
                assignments.add(assign(NEXT_RETRY_AT));
                values.add(timeFor(Param.NEXT_RETRY_AT, NEXT_RETRY_AT));
            }
        }
        if (!assignments.isEmpty()) {
            b.add(parked ? "recordFailure.parked" : "recordFailure.retry", new Fragment(mark(assignments),
                    binds(values, Bind.of(Param.KEY))));
        }
    }

    /** The log this store records failures in and parks refusing rows in; {@code null} when it has none. */
    public RejectionLog rejectionLog() {
        return lastResort;
    }

    /** The statements of this store, rendered when it was built (golden files, {@code relay explain}). */
    public OutboxStatements statements() {
        return statements;
    }

    // ---- the cycle

    /**
     * Locks and returns up to {@code limit} claimable rows in outbox order, skipping rows other transactions hold, rows
     * not due yet, and the later rows of an aggregate whose earlier row waits for a retry (or is FAILED, with
     * {@code blockAggregate}).
     */
    @Override
    public List<OutboxRow> claim(int limit, Instant now) {
        OutboxStatements.Statement claim = statements.get("claim");
        List<OutboxRow> rows = jdbc.query(claim.sql(), (rs, n) -> reader.read(rs),
                claim.values(Map.of(Param.NOW, now, Param.LIMIT, limit)));
        return withLoggedAttempts(rows);
    }

    /** A rendered statement and the values of its {@code ?} binds, in order (for {@code relay explain} and tests). */
    public record Statement(String sql, List<Object> binds) {
    }

    /** The claim {@link #claim} runs, as text and binds. */
    public Statement claimStatement(int limit, Instant now) {
        OutboxStatements.Statement claim = statements.get("claim");
        return new Statement(claim.sql(), Collections.unmodifiableList(java.util.Arrays.asList(
                claim.values(Map.of(Param.NOW, now, Param.LIMIT, limit)))));
    }

    /** Looks up the claimed rows' entries in the log: their attempts (where the row has none) and what to clear. */
    private List<OutboxRow> withLoggedAttempts(List<OutboxRow> rows) {
        if (log == null || rows.isEmpty()) {
            recorded = Set.of();
            return rows;
        }
        Map<String, RejectionLog.Entry> entries = log.entries(rows.stream().map(OutboxRow::keyText).toList());
        recorded = Set.copyOf(entries.keySet());
        if (attemptsOnRow || entries.isEmpty()) {
            return rows;
        }
        return rows.stream().map(r -> {
            RejectionLog.Entry e = entries.get(r.keyText());
            return e == null ? r : r.withRetryCount(e.attempts());
        }).toList();
    }

    /**
     * The claimed rows that must wait: for each aggregate, every claimed row that comes after a waiting row of the same
     * aggregate this claim does not hold (held by another relay, not due yet, or FAILED with {@code blockAggregate}).
     * Publishing it now would overtake that row. Concurrent claims can interleave (relay one holds rows 1 and 3 of an
     * aggregate, relay two row 2), so the check is against the first waiting row not held here, not only against the
     * aggregate's first waiting row.
     */
    @Override
    public Set<OutboxRow> behindOtherRows(List<OutboxRow> claimed) {
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
        // only a waiting row before the last claimed row can hold a claimed row back: bounding the read by it keeps
        // the check to the rows this claim skipped, instead of every waiting row of each claimed aggregate
        Object last = null;
        for (OutboxRow r : claimed) {
            if (r.aggregateId() != null && r.order() != null && (last == null || orderKind.compare(r.order(), last) > 0)) {
                last = r.order();
            }
        }
        if (last == null) {
            return Set.of();
        }
        OutboxStatements.Statement check = statements.get("firstWaitingNotHeld");
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

    /** Marks (or in DELETE mode deletes) rows published; call only after the broker confirmed them. */
    @Override
    public void markPublished(List<OutboxRow> rows, Instant publishedAt, String publisher) {
        if (rows.isEmpty()) {
            return;
        }
        OutboxStatements.Statement mark = statements.get("markPublished");
        Map<Param, Object> values = new EnumMap<>(Param.class);
        values.put(Param.AT, publishedAt);
        values.put(Param.PUBLISHER, publisher);
        values.put(Param.KEYS, rows.stream().map(OutboxRow::key).toList());
        jdbc.update(mark.sql(values), mark.values(values));
        Set<String> logged = recorded;
        if (log != null && !logged.isEmpty()) {
            log.clear(rows.stream().map(OutboxRow::keyText).filter(logged::contains).toList());
        }
    }

    /**
     * Marks the confirmed rows and records the failed attempts, as {@link #markPublished} and {@link #recordFailures},
     * all in a savepoint. When the database refuses that for the data of some row (a trigger raising, a constraint, a
     * value too long), the savepoint is rolled back and each row is written alone in a savepoint of its own: the rows
     * the database takes are marked, and each offender is parked as FAILED with the database's reason, on the row if
     * the row takes the FAILED write, otherwise as a FAILED entry in the log, which the claim skips. A published
     * offender's event stays published (it is on the broker); an operator's retry publishes it once more. Any other
     * error (the connection, the server) is thrown: the cycle fails as a whole, as in an outage. Cost: one savepoint
     * per batch; one per row (a PostgreSQL subtransaction each) only for a batch with a refused row.
     *
     * @return the offenders as parked: published rows with the mark's refusal as reason, failed attempts with the
     *         refusal appended to theirs
     * @throws IllegalStateException when a row refuses every write and there is no log to park it in
     */
    @Override
    public List<OutboxFailure> mark(List<OutboxRow> published, Instant at, String publisher,
                                    List<OutboxFailure> failures) {
        if (published.isEmpty() && failures.isEmpty()) {
            return List.of();
        }
        if (refusal(() -> {
            markPublished(published, at, publisher);
            recordFailures(failures, at);
        }) == null) {
            return List.of();
        }
        List<OutboxFailure> parked = new ArrayList<>();
        for (OutboxRow row : published) {
            String refused = refusal(() -> markPublished(List.of(row), at, publisher));
            if (refused != null) {
                parked.add(park(new OutboxFailure(row, "published to the broker, but the database refused its mark: "
                        + refused, row.retryCount() + 1, null), at));
            }
        }
        for (OutboxFailure f : failures) {
            String refused = refusal(() -> recordFailures(List.of(f), at));
            if (refused != null) {
                parked.add(park(new OutboxFailure(f.row(), f.reason()
                        + "; the database refused to record this failed attempt: " + refused, f.attempts(), null), at));
            }
        }
        return parked;
    }

    /** Parks a row whose own write was refused: on the row when it takes the FAILED write, else in the log. */
    private OutboxFailure park(OutboxFailure f, Instant at) {
        String refused = refusal(() -> recordFailures(List.of(f), at));
        if (refused == null) {
            return f;
        }
        if (lastResort == null) {
            throw new IllegalStateException("row " + f.row().keyText() + " of " + mapping.table().name() + " (event "
                    + f.row().eventId() + ") refuses every write (" + refused + ") and there is no "
                    + RejectionLog.TABLE + " to park it in: create it (relay-state.sql) or fix the row; until then"
                    + " its batch fails. " + f.reason());
        }
        lastResort.record(List.of(f), at);
        return f;
    }

    /**
     * Runs {@code writes} in a savepoint of the caller's transaction. Returns {@code null} when they succeeded (the
     * savepoint is left to end with the transaction, which saves a round trip), or the database's reason when it
     * refused them for the data of the rows written (then rolled back to the savepoint); throws any other failure.
     */
    private String refusal(Runnable writes) {
        Connection connection = DataSourceUtils.getConnection(dataSource); // the transaction's own connection
        try {
            Savepoint savepoint;
            try {
                savepoint = connection.setSavepoint();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot set a savepoint (the mark must run in the cycle's"
                        + " transaction): " + e.getMessage(), e);
            }
            try {
                writes.run();
                return null;
            } catch (RuntimeException e) {
                SQLException refused = dialect.refusedRows(e);
                if (refused == null) {
                    throw e;
                }
                try {
                    connection.rollback(savepoint);
                } catch (SQLException r) {
                    e.addSuppressed(r);
                    throw e;
                }
                return refused.getMessage() == null ? refused.getSQLState()
                        : refused.getMessage().replaceAll("\\s+", " ").strip();
            }
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    /**
     * Records failed attempts. A row that waits for a retry keeps its waiting state, with the attempt count, next retry
     * time and reason where the row has columns for them (and in the log where it has not). A parked row: STATUS sets
     * the failed status; TIMESTAMP stamps the processed time; DELETE leaves the row in place; the reason goes to the
     * reason column when mapped; the log records it in every mode that has one.
     */
    @Override
    public void recordFailures(List<OutboxFailure> failures, Instant at) {
        if (failures.isEmpty()) {
            return;
        }
        if (mode != MarkMode.DELETE) {
            List<OutboxFailure> parked = failures.stream().filter(OutboxFailure::parked).toList();
            List<OutboxFailure> waiting = failures.stream().filter(f -> !f.parked()).toList();
            update(parked, true, at);
            update(waiting, false, at);
        }
        if (log != null) {
            log.record(failures, at);
        }
    }

    private void update(List<OutboxFailure> failures, boolean parked, Instant at) {
        if (failures.isEmpty()) {
            return;
        }
        OutboxStatements.Statement update = statements.find(parked ? "recordFailure.parked" : "recordFailure.retry")
                .orElse(null);
        if (update == null) {
            return; // the row has no column to take the failure; the log holds it
        }
        jdbc.batchUpdate(update.sql(), failures.stream().map(f -> {
            Map<Param, Object> values = new EnumMap<>(Param.class);
            values.put(Param.AT, at);
            values.put(Param.REASON, RejectionLog.truncate(f.reason(), reasonLength));
            values.put(Param.ATTEMPTS, f.attempts());
            values.put(Param.NEXT_RETRY_AT, f.nextRetryAt());
            values.put(Param.KEY, f.row().key());
            return update.values(values);
        }).toList());
    }

    // ---- operations

    @Override
    public List<FailedRow> failed(int limit) {
        OutboxStatements.Statement first = statements.get("failed.first");
        return failedRows(first.sql(), first.values(Map.of(Param.LIMIT, limit)));
    }

    @Override
    public List<FailedRow> failed(Collection<String> keys) {
        List<FailedRow> found = new ArrayList<>();
        OutboxStatements.Statement byKeys = statements.get("failed.byKeys");
        for (List<String> chunk : RejectionLog.chunks(new LinkedHashSet<>(keys))) {
            Map<Param, Object> values = Map.of(Param.KEY_TEXTS, chunk);
            found.addAll(failedRows(byKeys.sql(values), byKeys.values(values)));
        }
        return found;
    }

    private String failedColumns() {
        return reader.selectList() + (mapping.has(LAST_ERROR) ? ", " + q(mapping.column(LAST_ERROR)) : "");
    }

    private List<FailedRow> failedRows(String sql, Object[] binds) {
        int reasonIndex = reader.columnCount() + 1;
        List<Object[]> read = jdbc.query(sql, (rs, n) -> new Object[] {reader.read(rs),
                mapping.has(LAST_ERROR) ? rs.getString(reasonIndex) : null}, binds);
        Map<String, RejectionLog.Entry> entries = lastResort == null ? Map.of()
                : lastResort.entries(read.stream().map(r -> ((OutboxRow) r[0]).keyText()).toList());
        List<FailedRow> rows = new ArrayList<>();
        for (Object[] r : read) {
            OutboxRow row = (OutboxRow) r[0];
            RejectionLog.Entry e = entries.get(row.keyText());
            int attempts = e != null && !attemptsOnRow ? e.attempts() : row.retryCount();
            rows.add(new FailedRow(row.withRetryCount(attempts), e != null ? e.reason() : (String) r[1], attempts,
                    e == null ? null : e.at()));
        }
        return rows;
    }

    @Override
    public List<OutboxRow> waiting(int limit) {
        OutboxStatements.Statement waiting = statements.get("waiting");
        List<OutboxRow> rows = jdbc.query(waiting.sql(), (rs, n) -> reader.read(rs),
                waiting.values(Map.of(Param.LIMIT, limit)));
        if (log == null || attemptsOnRow || rows.isEmpty()) {
            return rows;
        }
        Map<String, RejectionLog.Entry> entries = log.entries(rows.stream().map(OutboxRow::keyText).toList());
        return rows.stream().map(r -> entries.containsKey(r.keyText())
                ? r.withRetryCount(entries.get(r.keyText()).attempts()) : r).toList();
    }

    /**
     * Makes FAILED rows due now with no attempts counted: STATUS sets the pending status, TIMESTAMP clears the
     * processed time; the retry count and next retry time are reset where the row has them; the log's entry becomes a
     * due retry. Each row is changed only while it is still FAILED.
     */
    @Override
    public int retry(List<FailedRow> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        List<String> keys = rows.stream().map(r -> r.row().keyText()).toList();
        int changed;
        if (mode == MarkMode.DELETE) {
            changed = log.reset(keys);
        } else {
            OutboxStatements.Statement retry = statements.get("retry");
            changed = 0;
            for (FailedRow r : rows) {
                changed += jdbc.update(retry.sql(), retry.values(Map.of(Param.KEY, r.row().key())));
            }
            if (log != null) {
                log.reset(keys);
            } else if (lastResort != null) {
                lastResort.clear(keys); // the row's own columns hold its attempts: a parked entry is all there was
            }
        }
        return changed;
    }

    @Override
    public Backlog backlog(Instant now) {
        Long pending = jdbc.queryForObject(statements.get("backlog.pending").sql(), Long.class,
                statements.get("backlog.pending").values(Map.of()));
        Instant oldest = null;
        OutboxColumn time = mapping.has(CREATED_AT) ? CREATED_AT : mapping.has(OCCURRED_AT) ? OCCURRED_AT : null;
        if (time != null && pending != null && pending > 0) {
            OutboxStatements.Statement first = statements.get("backlog.oldest");
            List<Instant> found = jdbc.query(first.sql(),
                    (rs, n) -> mapping.kind(time).readInstant(rs, 1, mapping.naiveZone()), first.values(Map.of()));
            oldest = found.isEmpty() ? null : found.get(0);
        }
        long failedRows;
        if (mode == MarkMode.STATUS) {
            OutboxStatements.Statement count = statements.get("backlog.failed");
            Long n = jdbc.queryForObject(count.sql(), Long.class, count.values(Map.of()));
            failedRows = n == null ? 0 : n;
        } else {
            failedRows = log.countFailed();
        }
        return new Backlog(pending == null ? 0 : pending, oldest, failedRows);
    }

    // ---- retention

    /** Whether published rows stay in the table and can be deleted by age (STATUS with published-at, TIMESTAMP). */
    public boolean keepsPublishedRows() {
        return (mode == MarkMode.STATUS && mapping.has(PUBLISHED_AT)) || mode == MarkMode.TIMESTAMP;
    }

    /**
     * Deletes one bounded batch of published rows whose published time lies before {@code cutoff}, oldest first, by
     * key; FAILED and waiting rows are never touched. Run each batch in a short transaction of its own.
     *
     * @return rows deleted; fewer than {@code batchSize} when no older published row is left
     */
    public int deletePublishedBefore(Instant cutoff, int batchSize) {
        if (!keepsPublishedRows()) {
            throw new IllegalStateException(mode + " keeps no published rows");
        }
        OutboxStatements.Statement select = statements.get("retention.select");
        List<Object> keys = jdbc.query(select.sql(), (rs, n) -> rs.getObject(1),
                select.values(Map.of(Param.CUTOFF, cutoff, Param.LIMIT, batchSize)));
        if (keys.isEmpty()) {
            return 0;
        }
        OutboxStatements.Statement delete = statements.get("retention.delete");
        Map<Param, Object> values = Map.of(Param.CUTOFF, cutoff, Param.KEYS, keys);
        jdbc.update(delete.sql(values), delete.values(values));
        // the number selected, not the number deleted: a row changed meanwhile is skipped, and the next batch goes on
        return keys.size();
    }

    // ---- SQL helpers

    private String mark(List<String> assignments) {
        return dialect.sql("outbox.mark", Map.of("table", table, "assignments", String.join(", ", assignments),
                "key", q(mapping.column(KEY))));
    }

    private String assign(OutboxColumn column) {
        return dialect.sql("assign", Map.of("column", q(mapping.column(column))));
    }

    private String assignNull(OutboxColumn column) {
        return dialect.sql("assign.null", Map.of("column", q(mapping.column(column))));
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }
}
