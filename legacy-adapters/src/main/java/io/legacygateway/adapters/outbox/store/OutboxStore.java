package io.legacygateway.adapters.outbox.store;

import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.LAST_ERROR;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.NEXT_RETRY_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.PUBLISHED_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.RETRY_COUNT;

import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.adapters.outbox.ClaimLease;
import io.legacygateway.adapters.outbox.ClaimLostException;
import io.legacygateway.adapters.outbox.FailedRow;
import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.OutboxSource;
import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.mapping.OutboxRowReader;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Param;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import io.legacygateway.adapters.outbox.zerowrite.ZeroWriteReader;
import io.legacygateway.adapters.sql.Dialect;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

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

    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    /** Run in the cycle's transaction before each claim, where the dialect has it ({@link #claimInOrder(Dialect)}). */
    private final String claimInOrder;
    private final OutboxMapping mapping;
    private final MarkMode mode;
    private final OutboxRowReader reader;
    /** Where a row is parked when the database refuses every write to it: the log, when its table exists. */
    private final RejectionLog lastResort;
    /** Every statement of this store, rendered once here; cycles only bind values. */
    private final OutboxStatements statements;
    private final AggregateOrder aggregateOrder;
    private final OutboxMarks marks;
    private final OutboxOperations operations;
    /** The claim's lease and the fence before the broker's commit; {@code null} without a lease. */
    private final ClaimLease lease;

    /**
     * @param log            the gateway's record of failed rows, in this datasource; required when
     *                       {@link #needsRejectionLog} says so. Given otherwise, it only parks rows that refuse every
     *                       write (without it such a row fails the cycle)
     * @param retries        whether failed rows are attempted again (maxAttempts above 1)
     * @param blockAggregate whether a FAILED row holds back the later rows of its aggregate
     */
    public OutboxStore(DataSource dataSource, Dialect dialect, OutboxMapping mapping, RejectionLog log,
                       boolean retries, boolean blockAggregate) {
        this(dataSource, dialect, mapping, log, retries, blockAggregate, null);
    }

    /**
     * As {@link #OutboxStore(DataSource, Dialect, OutboxMapping, RejectionLog, boolean, boolean)}, with a claim lease
     * the database enforces where the dialect has one ({@link ClaimLease}; {@code null}: none).
     */
    public OutboxStore(DataSource dataSource, Dialect dialect, OutboxMapping mapping, RejectionLog log,
                       boolean retries, boolean blockAggregate, Duration claimLease) {
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
        this.claimInOrder = claimInOrder(dialect);
        this.mapping = mapping;
        String table = dialect.quote(mapping.table().name());
        this.reader = new OutboxRowReader(dialect, mapping, table);
        RejectionLog attempts = needed ? log : null; // the log of failed attempts, where the row cannot keep them
        this.lastResort = log;
        this.statements = OutboxStoreStatements.render(new OutboxConditions(dialect, mapping, table, attempts,
                lastResort, retries, blockAggregate), reader);
        this.aggregateOrder = new AggregateOrder(jdbc, dialect, mapping, statements);
        this.marks = new OutboxMarks(dataSource, jdbc, dialect, mapping, statements, attempts, lastResort,
                reasonLength(mapping));
        this.operations = new OutboxOperations(jdbc, mapping, reader, statements, attempts, lastResort);
        this.lease = ClaimLease.of(jdbc, dialect, claimLease, System::nanoTime);
    }

    /** The longest reason the row takes: a longer one would make the row refuse its failure record. */
    private static int reasonLength(OutboxMapping mapping) {
        int reasonColumn = mapping.has(LAST_ERROR)
                ? mapping.table().column(mapping.column(LAST_ERROR)).orElseThrow().size() : 0;
        return reasonColumn > 0 ? Math.min(reasonColumn, RejectionLog.MAX_REASON) : RejectionLog.MAX_REASON;
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
        if (lease != null) {
            lease.begin(); // before any row is locked: every lock of the cycle lives under the lease
        }
        marks.beforeClaim();
        if (claimInOrder != null) {
            jdbc.execute(claimInOrder);
        }
        return claimRows(limit, now);
    }

    @Override
    public boolean claimsPast() {
        return true;
    }

    private List<OutboxRow> claimRows(int limit, Instant now) {
        OutboxStatements.Statement claim = statements.get("claim");
        List<OutboxRow> rows = jdbc.query(claim.sql(), (rs, n) -> reader.read(rs),
                claim.values(Map.of(Param.NOW, now, Param.LIMIT, limit)));
        return marks.claimed(rows);
    }

    /**
     * The claimable rows after {@code lastOrder} of aggregates other than {@code heldBack}, locked, in outbox order, up
     * to {@code limit}: the claim's continuation past rows held back behind another relay's. A row without an
     * aggregate is included.
     */
    @Override
    public List<OutboxRow> claimPast(Object lastOrder, Set<String> heldBack, int limit, Instant now) {
        if (heldBack.size() + 16 > dialect.maxBindsPerStatement()) {
            return List.of(); // more aggregates held back than one statement can name: the batch stays as it is
        }
        OutboxStatements.Statement past = statements.get("claimPastHeldBack");
        Map<Param, Object> values = Map.of(Param.NOW, now, Param.LIMIT, limit,
                Param.LAST_ORDER, ColumnKind.bindable(lastOrder, dialect.bindsUuidAsText()),
                Param.HELD_BACK, List.copyOf(heldBack));
        List<OutboxRow> rows = jdbc.query(past.sql(values), (rs, n) -> reader.read(rs), past.values(values));
        return marks.claimed(rows);
    }

    /**
     * The fence before the broker commits the cycle's batch: where the store has a claim lease, proves on the
     * cycle's connection that the claim still holds its rows ({@link ClaimLease#prove}); without one, nothing.
     *
     * @throws ClaimLostException when it may not
     */
    @Override
    public void proveClaim() {
        if (lease != null) {
            lease.prove();
        }
    }

    /** The claim lease the database enforces, or {@code null} (none configured, or the dialect has none). */
    public Duration claimLease() {
        return lease == null ? null : lease.lease();
    }

    /**
     * The setting that makes the claim read the waiting rows in outbox order and stop at its limit, whatever the
     * planner's statistics say (PostgreSQL: {@code enable_sort}, {@code enable_seqscan} and {@code jit} off and generic
     * plans until the transaction ends), or {@code null} where the dialect needs none. Without it PostgreSQL, believing
     * few rows wait (no statistics yet, or statistics taken while nothing waited), reads every waiting row and sorts
     * them: a claim whose cost grows with the backlog; and a mark planned once while the table was small reads the
     * whole table for as long as nobody analyses it.
     */
    public static String claimInOrder(Dialect dialect) {
        return dialect.has("outbox.claim.inOrder") ? dialect.sql("outbox.claim.inOrder", Map.of()) : null;
    }

    /** A rendered statement and the values of its {@code ?} binds, in order (for {@code relay explain} and tests). */
    public record Statement(String sql, List<Object> binds) {
    }

    /** Runs {@code action} where a refused mark has released the claim's locks, before it takes them again (tests). */
    void onClaimReleased(Runnable action) {
        marks.claimReleased = action;
    }

    /** The claim {@link #claim} runs, as text and binds. */
    public Statement claimStatement(int limit, Instant now) {
        OutboxStatements.Statement claim = statements.get("claim");
        return new Statement(claim.sql(), Collections.unmodifiableList(Arrays.asList(
                claim.values(Map.of(Param.NOW, now, Param.LIMIT, limit)))));
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
        return aggregateOrder.behindOtherRows(claimed);
    }

    /** Marks (or in DELETE mode deletes) rows published; call only after the broker confirmed them. */
    @Override
    public void markPublished(List<OutboxRow> rows, Instant publishedAt, String publisher) {
        marks.markPublished(rows, publishedAt, publisher);
    }

    /**
     * Marks the confirmed rows and records the failed attempts, as {@link #markPublished} and {@link #recordFailures},
     * all in a savepoint. When the database refuses that for the data of some row (a trigger raising, a constraint, a
     * value too long), the savepoint is rolled back and each row is written alone in a savepoint of its own: the rows
     * the database takes are marked, and each offender is parked as FAILED with the database's reason, on the row if
     * the row takes the FAILED write, otherwise as a FAILED entry in the log, which the claim skips. A published
     * offender's event stays published (it is on the broker); an operator's retry publishes it once more. Any other
     * error (the connection, the server) is thrown: the cycle fails as a whole, as in an outage. Cost: one savepoint
     * per batch; one per row (a PostgreSQL subtransaction each) only for a batch with a refused row. On PostgreSQL the
     * batch's savepoint is the one {@link #claim} took before locking the rows ({@link Dialect#claimsInMarkSavepoint}):
     * rolling back to it releases the claim's locks, so the rows still waiting that no other transaction holds are
     * locked again first, and only those are marked one by one; a row another relay took meanwhile is left to it.
     *
     * @return the offenders as parked: published rows with the mark's refusal as reason, failed attempts with the
     *         refusal appended to theirs
     * @throws IllegalStateException when a row refuses every write and there is no log to park it in
     */
    @Override
    public List<OutboxFailure> mark(List<OutboxRow> published, Instant at, String publisher,
                                    List<OutboxFailure> failures) {
        return marks.mark(published, at, publisher, failures);
    }

    /**
     * Records failed attempts. A row that waits for a retry keeps its waiting state, with the attempt count, next retry
     * time and reason where the row has columns for them (and in the log where it has not). A parked row: STATUS sets
     * the failed status; TIMESTAMP stamps the processed time; DELETE leaves the row in place; the reason goes to the
     * reason column when mapped; the log records it in every mode that has one.
     */
    @Override
    public void recordFailures(List<OutboxFailure> failures, Instant at) {
        marks.recordFailures(failures, at);
    }

    // ---- operations

    @Override
    public List<FailedRow> failed(int limit) {
        return operations.failed(limit);
    }

    @Override
    public List<FailedRow> failed(Collection<String> keys) {
        return operations.failed(keys);
    }

    @Override
    public List<OutboxRow> waiting(int limit) {
        return operations.waiting(limit);
    }

    /**
     * Makes FAILED rows due now with no attempts counted: STATUS sets the pending status, TIMESTAMP clears the
     * processed time; the retry count and next retry time are reset where the row has them; the log's entry becomes a
     * due retry. Each row is changed only while it is still FAILED.
     */
    @Override
    public int retry(List<FailedRow> rows) {
        return operations.retry(rows);
    }

    @Override
    public Backlog backlog(Instant now) {
        return operations.backlog();
    }

    // ---- retention

    /** Whether published rows stay in the table and can be deleted by age (STATUS with published-at, TIMESTAMP). */
    public boolean keepsPublishedRows() {
        return keepsPublishedRows(mapping);
    }

    static boolean keepsPublishedRows(OutboxMapping mapping) {
        MarkMode mode = mapping.markMode();
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
        return operations.deletePublishedBefore(cutoff, batchSize);
    }
}
