package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.outbox.attempts.AttemptWrites.Finish;
import io.legacygateway.adapters.outbox.attempts.AttemptWrites.Statement;
import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The facts of every relay attempt ({@value #TABLE} and {@value #CYCLES}, DDL {@code ddl/<db>/relay-state.sql}): for
 * each row a cycle tried to publish, the attempt, what the broker answered (the publish observation) and what the
 * cycle's mark did (the mark state). The reconciliation report derives attempt numbers, duplicate-delivery candidates
 * and stuck intents from it.
 *
 * <p>One protocol, two writes per cycle, each a record of its own:
 * <ol>
 *   <li><b>The attempts</b> ({@link #attempted}), in a transaction of their own, committed before the broker commits
 *       the batch: they stay when the cycle then rolls back or the process dies, which is the evidence a
 *       reconciliation needs.</li>
 *   <li><b>The finish</b>: one row of {@value #CYCLES} (the broker's answer and the mark state of the cycle's
 *       attempts), plus the own answer or mark of each attempt that differs from its cycle's (refused, deferred,
 *       parked, ...). Where the log shares the cycle's database it is written in the cycle's transaction, after the
 *       mark ({@link #finishInCycle}): it commits with the mark or not at all. Otherwise, and for a cycle that rolled
 *       back, it is written right after the cycle's transaction ended ({@link #finished}), in one of its own.</li>
 * </ol>
 * An attempt reads (as {@code attempt.effective}) its own answer and mark, else its cycle's finish, else SENT/NONE: a
 * cycle whose finish never committed (the process died before its mark) may have reached the broker.
 *
 * <p>How the attempts are stored is the dialect's: on PostgreSQL, where {@value #PACKS} exists, a cycle's attempts are
 * one row of it and an own answer is a row of {@value #TABLE}; elsewhere one row per attempt, and an own answer updates
 * it. Why: docs/architecture.md, "Decisions". Rows of an earlier version read unchanged.
 *
 * <p>Durability: where the log shares the cycle's database and the dialect allows it (PostgreSQL), the attempts'
 * transaction commits without waiting for its WAL flush; the mark's commit, which waits, flushes it. A relay killed at
 * any point therefore leaves every attempt on record; a crash of the database server can lose only the attempts of
 * cycles whose mark it lost with them (their rows are still pending and published again; the broker drops the copies
 * it holds, recorded then as {@link Observation#DUPLICATE}).
 *
 * <p>Not guaranteed: a record of attempts made while this table could not be written (the attempts' write failing
 * fails the cycle before anything is sent; a finish written after the cycle failing is logged by the caller and
 * leaves SENT/NONE). Times come from the relay's clock, as UTC.
 */
public final class AttemptLog {

    public static final String TABLE = "gateway_outbox_attempt";
    /** One finish row per cycle (the broker's answer and the mark state of its attempts that have none of their own). */
    public static final String CYCLES = "gateway_outbox_cycle";
    /**
     * Where it exists (PostgreSQL's relay-state.sql creates it), a cycle's attempts are one row of it; the attempts
     * table then holds the overrides of packed attempts with an answer or mark of their own, and the rows of an earlier
     * version.
     */
    public static final String PACKS = "gateway_outbox_attempt_pack";




    /** One recorded attempt. */
    public record Entry(String rowKey, String eventId, String aggregateKey, Instant at, String instance,
                        Observation observation, MarkState markState, String detail, String cycle) {
    }

    private final String relay;
    private final AttemptTables tables;
    /** The cycle's transaction, where the log shares the cycle's database; else {@code null}. */
    private final JdbcTemplate cycleJdbc;
    private final AttemptWrites writes;
    private final AttemptQueries queries;
    /** The last cycle whose attempts were recorded, and their time; guarded by {@code this}. */
    private String lastCycle;
    private Object lastTime;
    /** Its attempts recorded with an observation other than SENT, by row key; guarded by {@code this}. */
    private Map<String, Attempt> lastRecorded = Map.of();
    /** The last cycle whose finish was written in its own transaction; guarded by {@code this}. */
    private String finishedInCycle;

    /**
     * @param transactions    the state datasource's transaction manager (the log's own transactions suspend any of the
     *                        caller)
     * @param property        the parameter that chose the datasource, named when the table is missing
     * @param cycleDataSource what the relay's cycle runs its transaction on, when it is the log's database (the finish
     *                        is then written in the cycle's transaction); {@code null} when it is another
     * @throws IllegalArgumentException naming the property when the table does not exist
     */
    public AttemptLog(DataSource dataSource, PlatformTransactionManager transactions, Dialect dialect, String relay,
                      String instance, String property, DataSource cycleDataSource) {
        this(dataSource, transactions, dialect, relay, instance, property, cycleDataSource, "LOCAL");
    }

    /**
     * As above, for a relay in {@code transactionMode} ({@code LOCAL}, {@code XA}): each cycle's finish row records it
     * where the cycles table has a {@code transaction_mode} column (a table of an earlier version has none and is
     * written as before).
     */
    public AttemptLog(DataSource dataSource, PlatformTransactionManager transactions, Dialect dialect, String relay,
                      String instance, String property, DataSource cycleDataSource, String transactionMode) {
        String missing = " (the gateway's attempt log " + TABLE + " and " + CYCLES + ", created by initialize-schema"
                + " or " + dialect.ddlResource("relay-state.sql") + "; or set attemptLog: false)";
        TableInspector.Table stored = TableInspector.inspect(dataSource, dialect, new TableName(null, TABLE),
                property + missing);
        TableInspector.Table cycleTable = TableInspector.inspect(dataSource, dialect, new TableName(null, CYCLES),
                property + missing);
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        TransactionTemplate own = new TransactionTemplate(transactions);
        own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.relay = relay;
        this.tables = new AttemptTables(dialect, dialect.quote(stored.name()), dialect.quote(cycleTable.name()),
                packs(dataSource, dialect, stored, property),
                stored.column("attempted_at").flatMap(ColumnKind::of).orElse(ColumnKind.TIMESTAMP_TZ));
        this.cycleJdbc = cycleDataSource == null ? null : new JdbcTemplate(cycleDataSource);
        this.writes = new AttemptWrites(tables, jdbc, own, relay, instance,
                cycleTable.column("transaction_mode").isPresent() ? transactionMode : null);
        this.queries = new AttemptQueries(tables, jdbc, own, relay);
    }

    /**
     * The quoted packs table when the dialect packs attempts and the script that creates it has run (the packs table
     * and the attempts table's {@code packed} column); else {@code null}: one row per attempt, as an earlier version.
     *
     * @throws IllegalArgumentException naming the property and the grants when the packs table exists but the user
     *                                  may not write it (every cycle would fail on its log)
     */
    private static String packs(DataSource dataSource, Dialect dialect, TableInspector.Table attempts,
                                String property) {
        if (!dialect.has("attempt.packed.insert") || attempts.column("packed").isEmpty()) {
            return null;
        }
        String packs;
        try {
            packs = dialect.quote(TableInspector.inspect(dataSource, dialect, new TableName(null, PACKS), property)
                    .name());
        } catch (IllegalArgumentException absent) {
            return null;
        }
        String attemptTable = dialect.quote(attempts.name());
        Boolean writable = new JdbcTemplate(dataSource).queryForObject(dialect.sql("attempt.packed.privileges",
                Map.of()), Boolean.class, packs, attemptTable);
        if (!Boolean.TRUE.equals(writable)) {
            throw new IllegalArgumentException(property + ": the attempt log's " + PACKS + " exists but this user"
                    + " may not write it: GRANT SELECT, INSERT, DELETE ON " + PACKS + " and GRANT USAGE ON SEQUENCE "
                    + TABLE + "_id_seq (the id sequence of " + TABLE + ") to the gateway's user; or set attemptLog:"
                    + " false");
        }
        return packs;
    }

    public String relay() {
        return relay;
    }

    /** Whether this log writes a cycle's attempts as one row of {@value #PACKS}. */
    public boolean packed() {
        return tables.packed();
    }

    /**
     * Records a cycle's attempts before anything is sent, and commits them, in a transaction of its own: one row of
     * {@value #PACKS} where the log is packed, else one insert of arrays (PostgreSQL) or multi-row inserts (as many rows
     * per statement as the dialect allows).
     */
    public synchronized void attempted(String cycle, List<Attempt> attempts, Instant at) {
        if (attempts.isEmpty()) {
            return;
        }
        Object time = tables.time(at);
        List<Statement> statements = new ArrayList<>();
        if (cycleJdbc != null) {
            writes.noFlushWait(statements); // the mark's commit flushes it (see the class comment)
        }
        writes.insert(cycle, attempts, time, statements);
        writes.write(statements);
        lastCycle = cycle;
        lastTime = time;
        lastRecorded = tables.packed() ? recorded(attempts) : Map.of(); // only a packed finish reads them
    }

    private static Map<String, Attempt> recorded(List<Attempt> attempts) {
        Map<String, Attempt> own = null;
        for (Attempt a : attempts) {
            if (a.observation() != Observation.SENT) {
                if (own == null) {
                    own = new HashMap<>();
                }
                own.put(a.row().keyText(), a);
            }
        }
        return own == null ? Map.of() : own;
    }


    /**
     * In the cycle's transaction, after its mark, where the log shares the cycle's database: writes the committed
     * cycle's finish there (the broker's answer; confirmed rows published, charged ones retry, {@code parked} rows
     * FAILED), so that it commits with the mark or not at all. A failure fails the cycle, as a failed mark does.
     *
     * @return whether it was written; when not (another database, or no attempt of the cycle on record),
     *         {@link #finished} writes it once the transaction committed
     */
    public synchronized boolean finishInCycle(String cycle, BrokerAnswer answer, Collection<String> parked) {
        if (cycleJdbc == null || !cycle.equals(lastCycle)) {
            return false;
        }
        List<Statement> statements = new ArrayList<>();
        writes.finish(new Finish(cycle, lastTime, answer, true, List.copyOf(parked), lastRecorded), statements);
        writes.write(cycleJdbc, statements);
        finishedInCycle = cycle;
        return true;
    }

    /**
     * After the cycle's transaction ended ({@code committed} or rolled back): writes its finish in a transaction of its
     * own, unless {@link #finishInCycle} wrote it and the cycle committed; nothing for a cycle whose attempts were not
     * recorded. In a rolled back cycle every row without an answer of its own becomes ROLLED_BACK. Where the dialect
     * allows it (PostgreSQL), this transaction does not wait for its log flush: a crash of the database can lose it,
     * which then reads SENT/NONE, as a crash of the relay before it would.
     */
    public synchronized void finished(String cycle, BrokerAnswer answer, boolean committed, Collection<String> parked) {
        if (!cycle.equals(lastCycle) || committed && cycle.equals(finishedInCycle)) {
            return;
        }
        List<Statement> statements = new ArrayList<>();
        writes.noFlushWait(statements);
        writes.finish(new Finish(cycle, lastTime, answer, committed, List.copyOf(parked), lastRecorded), statements);
        writes.write(statements);
    }

    /** The attempts at these rows (keys as text), oldest first, by row key. */
    public Map<String, List<Entry>> attempts(Collection<String> rowKeys) {
        return queries.attempts(rowKeys);
    }

    /** Rows with more than one attempt since {@code since} that may have reached the broker, at most {@code limit}. */
    public List<String> repeated(Instant since, int limit) {
        return queries.rowsSince("attempt.repeated", since, limit);
    }

    /** Rows with an attempt observed as {@link Observation#DUPLICATE} since {@code since}, at most {@code limit}. */
    public List<String> duplicates(Instant since, int limit) {
        return queries.rowsSince("attempt.duplicates", since, limit);
    }

    /** Rows a committed cycle marked published since {@code since}, newest first, at most {@code limit}. */
    public List<String> published(Instant since, int limit) {
        return queries.rowsSince("attempt.published", since, limit);
    }

    /**
     * Deletes one bounded batch of attempts older than {@code before}, in a short transaction of its own: where the
     * log is packed, packs first (a pack holds a cycle's attempts), then rows of the attempts table (overrides, and
     * attempts of an earlier version); once none older is left, one batch of the finish rows of cycles older than it
     * (their attempts deleted before them).
     *
     * @return rows deleted (a pack counts as one); fewer than {@code batchSize} when none older is left
     */
    public int deleteBefore(Instant before, int batchSize) {
        return queries.deleteBefore(before, batchSize);
    }
}
