package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Param;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import io.legacygateway.adapters.outbox.sql.SqlLists;
import io.legacygateway.adapters.sql.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The mark of an {@link OutboxStore}'s cycle: published rows marked (or deleted), failed attempts recorded on the row
 * and in the {@link RejectionLog}, and a row the database refuses for its data parked on its own, isolated by
 * savepoints of the caller's transaction (see {@link OutboxStore} for why savepoints and not fresh transactions).
 * Runs in the cycle's transaction; cycles are sequential.
 */
final class OutboxMarks {

    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    private final OutboxMapping mapping;
    private final OutboxStatements statements;
    /** The log of failed attempts; {@code null} when the row keeps them. */
    private final RejectionLog log;
    /** Where a row is parked when the database refuses every write to it; {@code null} when there is none. */
    private final RejectionLog lastResort;
    private final int reasonLength;
    /** Keys of the last claim that have an entry in the log (cleared when published). Cycles are sequential. */
    private volatile Set<String> recorded = Set.of();
    /**
     * The savepoint taken before the running cycle's claim where the dialect {@linkplain Dialect#claimsInMarkSavepoint
     * claims in the mark's savepoint}; {@code null} otherwise and once that transaction ended.
     */
    private volatile Savepoint beforeClaim;
    /** Runs once a refused mark rolled back to {@link #beforeClaim}, before the rows are locked again (tests). */
    volatile Runnable claimReleased = () -> { };

    OutboxMarks(DataSource dataSource, JdbcTemplate jdbc, Dialect dialect, OutboxMapping mapping,
                OutboxStatements statements, RejectionLog log, RejectionLog lastResort, int reasonLength) {
        this.dataSource = dataSource;
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.mapping = mapping;
        this.statements = statements;
        this.log = log;
        this.lastResort = lastResort;
        this.reasonLength = reasonLength;
    }

    /**
     * Looks up the claimed rows' entries in the log: their attempts (where the row has none), and the keys whose entry
     * {@link #markPublished} clears.
     */
    List<OutboxRow> claimed(List<OutboxRow> rows) {
        if (log == null || rows.isEmpty()) {
            recorded = Set.of();
            return rows;
        }
        Map<String, RejectionLog.Entry> entries = log.entries(rows.stream().map(OutboxRow::keyText).toList());
        recorded = Set.copyOf(entries.keySet());
        if (OutboxStore.attemptsOnRow(mapping) || entries.isEmpty()) {
            return rows;
        }
        return rows.stream().map(r -> {
            RejectionLog.Entry e = entries.get(r.keyText());
            return e == null ? r : r.withRetryCount(e.attempts());
        }).toList();
    }

    /**
     * Called before the claim: where the dialect {@linkplain Dialect#claimsInMarkSavepoint claims in the mark's
     * savepoint}, sets that savepoint in the caller's transaction, for {@link #mark} to roll back to.
     */
    void beforeClaim() {
        beforeClaim = null;
        if (!dialect.claimsInMarkSavepoint() || !TransactionSynchronizationManager.isSynchronizationActive()) {
            return; // no transaction: the mark says so when it tries its own savepoint
        }
        beforeClaim = savepoint();
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                beforeClaim = null;
            }
        });
    }

    /** See {@link OutboxStore#markPublished}. */
    void markPublished(List<OutboxRow> rows, Instant publishedAt, String publisher) {
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

    /** See {@link OutboxStore#mark}. */
    List<OutboxFailure> mark(List<OutboxRow> published, Instant at, String publisher, List<OutboxFailure> failures) {
        if (published.isEmpty() && failures.isEmpty()) {
            return List.of();
        }
        Savepoint claimed = beforeClaim;
        beforeClaim = null;
        if (refusal(claimed, () -> {
            markPublished(published, at, publisher);
            recordFailures(failures, at);
        }) == null) {
            return List.of();
        }
        if (claimed == null) {
            return oneByOne(published, at, publisher, failures);
        }
        // the rollback released the claim's locks: only the rows still waiting that no other relay holds are ours
        claimReleased.run();
        Set<String> ours = relock(published, failures);
        return oneByOne(published.stream().filter(r -> ours.contains(r.keyText())).toList(), at, publisher,
                failures.stream().filter(f -> ours.contains(f.row().keyText())).toList());
    }

    /** Each row's mark or failure record in a savepoint of its own; the rows the database refuses parked. */
    private List<OutboxFailure> oneByOne(List<OutboxRow> published, Instant at, String publisher,
                                         List<OutboxFailure> failures) {
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
        return refusal(null, writes);
    }

    /** As {@link #refusal(Runnable)}, rolling back to {@code savepoint} when given one, else to one of its own. */
    private String refusal(Savepoint given, Runnable writes) {
        Connection connection = DataSourceUtils.getConnection(dataSource); // the transaction's own connection
        try {
            Savepoint savepoint = given != null ? given : savepoint();
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

    /** A savepoint of the caller's transaction. */
    private Savepoint savepoint() {
        Connection connection = DataSourceUtils.getConnection(dataSource); // the transaction's own connection
        try {
            return connection.setSavepoint();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot set a savepoint (the mark must run in the cycle's transaction): "
                    + e.getMessage(), e);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    /** Locks again those of the rows that still wait and no other transaction holds; returns their keys as text. */
    private Set<String> relock(List<OutboxRow> published, List<OutboxFailure> failures) {
        List<Object> keys = new ArrayList<>();
        published.forEach(r -> keys.add(r.key()));
        failures.forEach(f -> keys.add(f.row().key()));
        if (keys.isEmpty()) {
            return Set.of();
        }
        OutboxStatements.Statement relock = statements.get("relock");
        Map<Param, Object> values = new EnumMap<>(Param.class);
        values.put(Param.KEYS, keys);
        return Set.copyOf(jdbc.queryForList(relock.sql(values), String.class, relock.values(values)));
    }

    /** See {@link OutboxStore#recordFailures}. */
    void recordFailures(List<OutboxFailure> failures, Instant at) {
        if (failures.isEmpty()) {
            return;
        }
        if (mapping.markMode() != MarkMode.DELETE) {
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
            values.put(Param.REASON, SqlLists.truncate(f.reason(), reasonLength));
            values.put(Param.ATTEMPTS, f.attempts());
            values.put(Param.NEXT_RETRY_AT, f.nextRetryAt());
            values.put(Param.KEY, f.row().key());
            return update.values(values);
        }).toList());
    }
}
