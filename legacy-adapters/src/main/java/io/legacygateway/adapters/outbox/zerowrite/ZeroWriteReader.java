package io.legacygateway.adapters.outbox.zerowrite;

import io.legacygateway.adapters.Failures;
import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.adapters.outbox.FailedRow;
import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.OutboxSource;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import io.legacygateway.adapters.outbox.store.RejectionLog;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.Dialect.CommitHorizon;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * {@link MarkMode#ZERO_WRITE}: publishes rows of a legacy table it may only read, and keeps its position in the
 * gateway's table {@value #TABLE} of the state datasource (possibly another database).
 *
 * <p><b>Guarantee: no committed row is skipped, also when its transaction commits late.</b> The relay never advances
 * past a point that a still-running transaction could insert behind. It works in <i>windows</i> of a visibility mark
 * that only a finished transaction can leave behind:
 * <ol>
 *   <li>When no window is open it asks the database for its <i>commit horizon</i> {@code h}: a mark such that every
 *       transaction whose rows carry a mark below {@code h} has ended. The new window is {@code [low, h)}, where
 *       {@code low} is the previous window's end (nothing, at the first start with {@code startFrom BEGINNING}).</li>
 *   <li>It reads the window's rows in outbox order ({@code orderColumn}, then {@code keyColumn}), a batch at a time,
 *       with a cursor; the set of rows in a closed window cannot change any more, so the cursor cannot pass a row that
 *       becomes visible later.</li>
 *   <li>A batch shorter than the limit closes the window: {@code low = h}.</li>
 * </ol>
 * The position (window and cursor) is locked ({@code FOR UPDATE}) at the start of each cycle and written in the same
 * transaction, which the relay commits only after the broker confirmed the batch: one relay instance at a time works a
 * position, and a crash re-reads the batch (the broker's duplicate detection drops the copies). Where the legacy table
 * and the position share that transaction (one datasource), it must be READ COMMITTED, as the relay's cycles are, so
 * that the window's read sees every commit before it (refused at the first claim otherwise).
 *
 * <p>The mark per database ({@link Dialect#commitHorizon()}):
 * <ul>
 *   <li><b>PostgreSQL</b>: the row's {@code xmin} (the id of the transaction that wrote this version of the row,
 *       widened to 64 bits against the current epoch) and {@code h = pg_snapshot_xmin(pg_current_snapshot())}.
 *       Needs no schema change. Costs: {@code xmin} cannot be indexed, so each read scans the table; the horizon
 *       waits for the oldest transaction of the whole cluster (a long transaction delays publication by its length);
 *       a row updated later gets a new {@code xmin} and is published again with its event id (deduplicated
 *       downstream).</li>
 *   <li><b>MariaDB</b>: the row's insert time, filled by the database ({@code DEFAULT CURRENT_TIMESTAMP(6)}), and
 *       {@code h} = the earliest of: the start of every active InnoDB transaction ({@code INNODB_TRX}, needs the
 *       PROCESS privilege), the start of every running statement ({@code PROCESSLIST}), and now; minus
 *       {@code settleTime}. {@code INNODB_TRX} is a cache that stays as it was while something reads it more often
 *       than every 0.1 s: a horizon counts only when the list shows the reader's own transaction running that read
 *       (else nothing new is published in that cycle; see {@link ZeroWriteWindows#horizon}). Refused when the column
 *       or the privilege is missing.</li>
 *   <li>Other databases: refused at startup.</li>
 * </ul>
 * Not guaranteed: exactly-once (see above), order across windows other than by the mark.
 */
public final class ZeroWriteReader implements OutboxSource {

    public static final String TABLE = "gateway_outbox_position";
    /** How long the first start of a relay with {@code startFrom: NOW} waits for a proven commit horizon. */
    private static final Duration FIRST_HORIZON_WITHIN = Duration.ofSeconds(10);

    /** Where a new relay starts. */
    public enum StartFrom {
        /** With every row already in the table. */
        BEGINNING,
        /** With rows whose transactions end after the relay first started. */
        NOW
    }

    private final DataSource state;
    private final DataSource legacy;
    private final String relay;
    /** PostgreSQL: the marks are transaction ids, which a restore or a migration to another cluster starts afresh. */
    private final boolean transactionIds;
    private volatile boolean isolationChecked;
    private final OutboxMapping mapping;
    private final RejectionLog rejections;
    /** The reads of the legacy table. */
    private final ZeroWriteWindows windows;
    /** The relay's position in the state datasource. */
    private final ZeroWritePositions positions;
    /** Keys of the last claim that have an entry in the log (cleared when published). Cycles are sequential. */
    private volatile Set<String> recorded = Set.of();
    /** The late rows last counted in the backlog (warned about when they grow). */
    private volatile long lateRowsLogged;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ZeroWriteReader.class);

    /**
     * Validates everything zero-write depends on and creates the relay's position if it has none.
     *
     * @param label names a parameter in errors
     * @throws IllegalArgumentException naming the parameter when the database offers no sound method, a required
     *                                  column or privilege is missing, or the position belongs to another table
     */
    public ZeroWriteReader(DataSource legacy, Dialect dialect, OutboxMapping mapping, DataSource state,
                           Dialect stateDialect, RejectionLog rejections, String relay, String source,
                           StartFrom startFrom, Duration settleTime, UnaryOperator<String> label) {
        this.state = state;
        this.legacy = legacy;
        this.relay = relay;
        this.transactionIds = dialect.commitHorizon() == CommitHorizon.TRANSACTION_IDS;
        this.mapping = mapping;
        this.rejections = rejections;
        this.positions = new ZeroWritePositions(state, stateDialect, relay, label);
        this.windows = new ZeroWriteWindows(legacy, dialect, mapping, settleTime, label);
        String required = label.apply("markMode") + ": ZERO_WRITE";
        ZeroWriteWindows.Asked asked;
        try {
            asked = windows.askOnce();
        } catch (DataAccessException | IllegalStateException e) {
            throw new IllegalArgumentException(required + " cannot read the commit horizon of " + dialect.id() + " ("
                    + Failures.rootMessage(e) + ")" + (dialect.commitHorizon() == CommitHorizon.INSERT_TIME
                    ? "; the gateway's database user needs the PROCESS privilege (GRANT PROCESS ON *.* TO ...)" : ""), e);
        }
        try {
            windows.read(ZeroWritePosition.startingAt(null).open(asked.horizon()), 0);
        } catch (DataAccessException e) {
            throw new IllegalArgumentException(required + " cannot read table '" + mapping.table().name() + "' ("
                    + Failures.rootMessage(e) + ")", e);
        }
        if (dialect.commitHorizon() == CommitHorizon.TRANSACTION_IDS && positions.exists()) {
            String beyond = fromAnotherTransactionIdSpace(positions.read(), asked.horizon());
            if (beyond != null) {
                throw new IllegalArgumentException(label.apply("relay") + ": " + beyond);
            }
        }
        String start = null;
        if (startFrom == StartFrom.NOW && !positions.exists()) {
            try {
                start = asked.proven() ? asked.horizon() : windows.firstHorizon(FIRST_HORIZON_WITHIN);
            } catch (IllegalStateException e) {
                throw new IllegalArgumentException(label.apply("startFrom") + ": NOW needs a first commit horizon of "
                        + dialect.id() + " (" + e.getMessage() + ")", e);
            }
        }
        positions.create(source, ZeroWritePosition.startingAt(start), label);
    }

    @Override
    public OutboxMapping mapping() {
        return mapping;
    }

    @Override
    public DataSource transactionDataSource() {
        return state;
    }
    /**
     * Locks the position, reads the rows whose retry is due (see {@link RejectionLog#due}) and the next batch of final
     * rows, and moves the position past them, in the caller's transaction on the state datasource.
     */
    @Override
    public List<OutboxRow> claim(int limit, Instant now) {
        if (!isolationChecked) {
            requireReadsThatSeeEveryCommitBeforeThem();
            isolationChecked = true;
        }
        ZeroWritePosition p = positions.lock();
        List<OutboxRow> rows = new ArrayList<>(dueRetries(now, limit));
        int room = limit - rows.size();
        if (room > 0) {
            rows.addAll(window(p, room).stream()
                    .filter(r -> rows.stream().noneMatch(d -> d.keyText().equals(r.keyText()))).toList());
        }
        if (rows.isEmpty()) {
            recorded = Set.of();
            return rows;
        }
        Map<String, RejectionLog.Entry> entries = rejections.entries(rows.stream().map(OutboxRow::keyText).toList());
        recorded = Set.copyOf(entries.keySet());
        return rows.stream().map(r -> {
            RejectionLog.Entry e = entries.get(r.keyText());
            return e == null ? r : r.withRetryCount(e.attempts());
        }).toList();
    }

    /**
     * Where the legacy table shares the cycle's transaction (one datasource for both), that transaction must be READ
     * COMMITTED, as the relay's is: under REPEATABLE READ its read view, taken at its first read, before the horizon,
     * would hide the rows of transactions that commit between the two, and the window would pass them. Checked once.
     *
     * @throws IllegalStateException when the transaction on the legacy table is REPEATABLE READ or SERIALIZABLE
     */
    private void requireReadsThatSeeEveryCommitBeforeThem() {
        if (!TransactionSynchronizationManager.hasResource(legacy)) {
            return; // the reads run alone, each with a view of every commit before it
        }
        Connection c = DataSourceUtils.getConnection(legacy);
        try {
            int level = c.getTransactionIsolation();
            if (level > Connection.TRANSACTION_READ_COMMITTED) {
                throw new IllegalStateException("ZERO_WRITE reads table '" + mapping.table().name() + "' in the cycle's"
                        + " transaction, which must be READ COMMITTED (JDBC level " + level + "): an older read view"
                        + " would hide rows committed after it, and the window would pass them");
            }
        } catch (SQLException e) {
            throw new UncategorizedSQLException("transaction isolation", null, e);
        } finally {
            DataSourceUtils.releaseConnection(c, legacy);
        }
    }

    /** Rows whose retry is due, read again from the legacy table; entries of rows that are gone are removed. */
    private List<OutboxRow> dueRetries(Instant now, int limit) {
        List<RejectionLog.Entry> due = rejections.due(now, limit);
        if (due.isEmpty()) {
            return List.of();
        }
        List<OutboxRow> rows = windows.byKeys(due.stream().map(RejectionLog.Entry::rowKey).toList());
        Set<String> found = new HashSet<>();
        rows.forEach(r -> found.add(r.keyText()));
        List<String> gone = due.stream().map(RejectionLog.Entry::rowKey).filter(k -> !found.contains(k)).toList();
        rejections.clear(gone);
        return rows;
    }

    /** The next rows of the open (or a new) window, moving the position past them. */
    private List<OutboxRow> window(ZeroWritePosition p, int limit) {
        for (int attempt = 0; attempt < 2; attempt++) {
            if (p.high() == null) {
                if (transactionIds) {
                    String beyond = windows.horizon().map(h -> fromAnotherTransactionIdSpace(positions.read(), h))
                            .orElse(null);
                    if (beyond != null) {
                        throw new IllegalStateException(beyond);
                    }
                }
                String low = p.low();
                Optional<String> h = windows.horizon().flatMap(horizon -> windows.finalUpTo(low, horizon));
                if (h.isEmpty()) {
                    break; // nothing has become final since the last window, or nothing proven so
                }
                p = p.open(h.get());
            }
            List<OutboxRow> rows = windows.read(p, limit);
            if (rows.size() == limit) {
                positions.save(windows.after(p, rows.get(rows.size() - 1)));
                return rows;
            }
            p = p.close();
            if (!rows.isEmpty()) {
                positions.save(p);
                return rows;
            }
        }
        positions.save(p);
        return List.of();
    }

    /**
     * PostgreSQL: why position {@code p} cannot belong to the database's transaction ids, whose commit horizon is
     * {@code horizon} now; {@code null} when it can. The horizon never moves back in a cluster, so a position beyond it
     * was taken in another transaction id space: the database was restored from a dump, or the table moved to another
     * cluster. Its rows carry new, lower ids, and the relay would wait for ever for a window to open (nothing published,
     * the backlog 0).
     */
    private String fromAnotherTransactionIdSpace(ZeroWritePosition p, String horizon) {
        String stored = p.high() != null ? p.high() : p.low();
        if (stored == null || !windows.beyond(stored, horizon)) {
            return null;
        }
        return "ZERO_WRITE: the position of relay '" + relay + "' in " + TABLE + " stands at transaction id " + stored
                + ", beyond the database's commit horizon " + horizon + ", which never moves back: the database was"
                + " restored or moved to another cluster (new transaction ids), and this relay would never publish"
                + " again. Delete the position (DELETE FROM " + TABLE + " WHERE relay = '" + relay + "') and start the"
                + " relay again with startFrom: BEGINNING (every row of the table published again, with the same event"
                + " ids: consumers' inboxes drop the copies) or startFrom: NOW (only rows written from then on)";
    }

    /** One reader per position: the cycle's transaction holds the position row until it ends. */
    @Override
    public Set<OutboxRow> behindOtherRows(List<OutboxRow> claimed) {
        return Set.of();
    }

    /** The position has moved past every claimed row: each must be published or recorded in this cycle. */
    @Override
    public boolean keepsOrderPerAggregate() {
        return false;
    }

    /** The position already moved in {@link #claim}; it commits with the cycle. Entries of retried rows go. */
    @Override
    public void markPublished(List<OutboxRow> rows, Instant publishedAt, String publisher) {
        Set<String> logged = recorded;
        if (!logged.isEmpty()) {
            rejections.clear(rows.stream().map(OutboxRow::keyText).filter(logged::contains).toList());
        }
    }

    /** Records the attempts in the rejection log; the rows stay untouched in the legacy table. */
    @Override
    public void recordFailures(List<OutboxFailure> failures, Instant at) {
        rejections.record(failures, at);
    }

    @Override
    public List<FailedRow> failed(int limit) {
        return failedRows(rejections.failed(limit));
    }

    @Override
    public List<FailedRow> failed(Collection<String> keys) {
        return failedRows(rejections.entries(keys).values().stream()
                .filter(e -> e.state() == RejectionLog.State.FAILED).toList());
    }

    private List<FailedRow> failedRows(List<RejectionLog.Entry> entries) {
        Map<String, OutboxRow> rows = new HashMap<>();
        windows.byKeys(entries.stream().map(RejectionLog.Entry::rowKey).toList()).forEach(r -> rows.put(r.keyText(), r));
        return entries.stream().map(e -> {
            OutboxRow row = rows.getOrDefault(e.rowKey(), new OutboxRow(e.rowKey(), e.rowKey(), null, e.eventId(),
                    null, null, null, null, null, null, null, null, null, null, e.attempts(),
                    "the row is no longer in the table"));
            return new FailedRow(row.withRetryCount(e.attempts()), e.reason(), e.attempts(), e.at());
        }).toList();
    }

    /** The log's entries become due retries; the next cycle reads the rows again by key. */
    @Override
    public int retry(List<FailedRow> rows) {
        return rejections.reset(rows.stream().map(r -> r.row().keyText()).toList());
    }

    /**
     * Rows not yet published: beyond the position, or inside the open window after its cursor, whether or not the
     * horizon has passed them yet; on MariaDB also rows committed in windows already opened ({@link
     * ZeroWriteWindows#lateRows}: never published, counted so that they are seen). And FAILED entries.
     */
    @Override
    public Backlog backlog(Instant now) {
        ZeroWritePosition stored = positions.read();
        // a position of another transaction id space (restore, migration) has published nothing of this table
        ZeroWritePosition p = transactionIds && windows.horizon()
                .map(h -> fromAnotherTransactionIdSpace(stored, h)).isPresent()
                ? ZeroWritePosition.startingAt(null) : stored;
        long count = windows.countUnread(p);
        long late = windows.lateRows();
        if (late > lateRowsLogged) {
            log.warn("ZERO_WRITE on table '{}': {} row(s) committed in windows the relay had already opened: they will"
                    + " not be published (counted in the backlog). Rows whose insert time the application writes, a"
                    + " writer session in another time zone than the server's, or a clock stepped back put them there",
                    mapping.table().name(), late);
        }
        lateRowsLogged = late;
        count += late;
        Instant oldest = null;
        if (count > 0) {
            List<OutboxRow> first = windows.unread(p, 1);
            if (!first.isEmpty()) {
                oldest = first.get(0).createdAt() != null ? first.get(0).createdAt() : first.get(0).occurredAt();
            }
        }
        return new Backlog(count, oldest, rejections.countFailed());
    }

    /** Rows waiting for a retry (from the log), then rows beyond the position. */
    @Override
    public List<OutboxRow> waiting(int limit) {
        List<RejectionLog.Entry> retrying = rejections.due(Instant.parse("9999-12-31T00:00:00Z"), limit);
        List<OutboxRow> rows = new ArrayList<>();
        Map<String, Integer> attempts = new HashMap<>();
        retrying.forEach(e -> attempts.put(e.rowKey(), e.attempts()));
        windows.byKeys(List.copyOf(attempts.keySet())).forEach(r -> rows.add(r.withRetryCount(attempts.get(r.keyText()))));
        if (rows.size() < limit) {
            rows.addAll(windows.unread(positions.read(), limit - rows.size()));
        }
        return rows;
    }

    /** The reads of the legacy table, rendered when the reader was built ({@code relay explain}). */
    public OutboxStatements statements() {
        return windows.statements();
    }
}
