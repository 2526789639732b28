package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.outbox.attempts.AttemptWrites.Finish;
import io.legacygateway.adapters.outbox.attempts.AttemptWrites.Statement;
import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.sql.SqlLists;
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
 * <p>Where {@value #PACKS} exists (PostgreSQL), a cycle's attempts are one row of it, not one row each: the log's cost
 * was its rows. A cycle's finish is one row of {@value #CYCLES} (the answer and mark state of its attempts still
 * SENT), not an update of its attempts; only an attempt whose answer or mark differs from its cycle's (refused,
 * deferred, parked, ...) gets a row of its own: an override row (packed) or an update of its row (one row per
 * attempt). Every reader here reads an attempt's effective state ({@code attempt.effective}): its own values when
 * set, else its cycle's; an attempt of a cycle without a finish row reads SENT/NONE. Rows written by a version that
 * updated every attempt, or wrote one row per attempt, carry their facts themselves and read unchanged.
 *
 * <p>Every write runs in a transaction of its own ({@code REQUIRES_NEW}), never in the relay's cycle, one per cycle in
 * the steady state: the attempts are recorded (one insert) and committed before the broker commits the
 * batch (the relay writes them while it sends the batch in the broker's transaction, which delivers nothing before its
 * commit), and stay recorded when the cycle then rolls back or the process dies between publish and mark, which is
 * exactly the evidence a reconciliation needs. The broker's answer and the mark state of a committed cycle
 * ({@link #finished}) are kept in memory and written in the transaction of the next cycle's insert, before that
 * insert; when no next cycle follows (the relay goes idle, stops, or fails) {@link #flush} writes them (the relay
 * calls it on its log thread shortly after it goes idle, so that a cycle that follows soon carries it), and every
 * reader of this log flushes first. A rolled-back cycle's finish is written at once. An attempt whose answer or mark
 * was never recorded (the process died before its finish was written) reads as {@link Observation#SENT} /
 * {@link MarkState#NONE}: it may have reached the broker; a relay killed between two cycles therefore leaves the last
 * committed cycle SENT/NONE, as if it had died before its mark.
 *
 * <p>Durability of the insert when the relay's cycle commits on the same datasource ({@code flushedByCycle}) and the
 * dialect allows it (PostgreSQL): the log's transaction commits without waiting for its WAL flush. What survives:
 * <ul>
 *   <li>the relay process killed (kill -9) at any point: every attempt is on record, the commit having returned (the
 *       database server holds it; only its own crash can lose an unflushed commit);</li>
 *   <li>a crash of the database: the cycle's mark commits after the insert and waits for its flush, which writes the
 *       whole log up to it, so every attempt of a cycle whose mark committed is on record. Only the attempts of a cycle
 *       whose mark was lost with them can be lost (within PostgreSQL's {@code wal_writer_delay}, 3 x 200 ms at
 *       most): their rows are still pending and are published again; the broker drops the copies it holds, which
 *       the relay then records as {@link Observation#DUPLICATE} (no record of sending) instead of a resend after a
 *       crash.</li>
 * </ul>
 * On another datasource, or another database, every insert waits for its flush.
 *
 * <p>Not guaranteed: a record of attempts the process made while this table could not be written (the first write
 * failing fails the cycle before anything is sent; later writes failing are logged by the caller and leave the
 * conservative SENT/NONE). Times come from the relay's clock, as UTC.
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

    /** What the relay learned from the broker about one row's attempt. */
    public enum Observation {
        /** Handed to the broker; no answer recorded (the cycle is running, or died): it may have been delivered. */
        SENT,
        /** The broker stored it (or already held it, by its duplicate-detection id, from an earlier send of this row). */
        CONFIRMED,
        /**
         * The broker already held this event (same duplicate-detection id: same event id and content) and the relay has
         * no record of sending it: the row was marked published, but what consumers got came from elsewhere (a
         * restored or reloaded outbox, another relay or table, attempts pruned or not logged).
         */
        DUPLICATE,
        /** The broker refused this event (charged as a failed attempt). */
        REFUSED,
        /** Not sent: an earlier event of its aggregate was refused in the same batch. */
        DEFERRED,
        /** The batch failed as a whole (broker or connection) before its commit was asked: nothing of it was delivered. */
        FAILED,
        /**
         * The broker's commit of the batch failed without an answer (the connection lost during the commit, the broker
         * killed or failed over): the broker may have stored any of it. The rows are not charged an attempt and are
         * sent again; the broker drops the copies it holds, which this attempt explains (no unexplained duplicate).
         */
        OUTCOME_UNKNOWN,
        /** The row could not become an event; nothing was sent. */
        NOT_SENT,
        /** A step of the relay dropped the event (the detail says why): nothing was sent, the row was marked done. */
        FILTERED;

        /** Whether an attempt with this observation may have put the event on the broker. */
        public boolean mayHaveDelivered() {
            return this == SENT || this == CONFIRMED || this == OUTCOME_UNKNOWN;
        }
    }

    /** What the cycle's mark did with the row. */
    public enum MarkState {
        /** The cycle never ended: the process died, or the mark is still running. */
        NONE,
        /** Marked published in a committed cycle. */
        PUBLISHED,
        /** Charged a failed attempt; waits for its next retry. */
        RETRY,
        /** Parked as FAILED. */
        FAILED,
        /** Left as it was (not published, not charged). */
        UNCHANGED,
        /** The cycle's transaction rolled back: no mark. */
        ROLLED_BACK
    }

    /** One row's attempt, to record before the batch is sent. */
    public record Attempt(OutboxRow row, Observation observation, String detail) {
    }

    /** One recorded attempt. */
    public record Entry(String rowKey, String eventId, String aggregateKey, Instant at, String instance,
                        Observation observation, MarkState markState, String detail, String cycle) {
    }

    private final String relay;
    private final AttemptTables tables;
    /** Whether the insert may commit without waiting for its log flush (see the class comment). */
    private final boolean flushedByCycle;
    private final AttemptWrites writes;
    private final AttemptQueries queries;
    /** The finish of the last committed cycle, not yet written (see the class comment); guarded by {@code this}. */
    private Finish unwritten;
    /** The last cycle whose attempts were recorded, and their time; guarded by {@code this}. */
    private String lastCycle;
    private Object lastTime;
    /** Its attempts recorded with an observation other than SENT, by row key; guarded by {@code this}. */
    private Map<String, Attempt> lastRecorded = Map.of();

    /**
     * @param transactions the state datasource's transaction manager (writes suspend any transaction of the caller)
     * @param property     the parameter that chose the datasource, named when the table is missing
     * @param flushedByCycle the relay's cycle commits on this same datasource, after each insert
     * @throws IllegalArgumentException naming the property when the table does not exist
     */
    public AttemptLog(DataSource dataSource, PlatformTransactionManager transactions, Dialect dialect, String relay,
                      String instance, String property, boolean flushedByCycle) {
        this(dataSource, transactions, dialect, relay, instance, property, flushedByCycle, "LOCAL");
    }

    /**
     * As above, for a relay in {@code transactionMode} ({@code LOCAL}, {@code XA}): each cycle's finish row records it
     * where the cycles table has a {@code transaction_mode} column (a table of an earlier version has none and is
     * written as before).
     */
    public AttemptLog(DataSource dataSource, PlatformTransactionManager transactions, Dialect dialect, String relay,
                      String instance, String property, boolean flushedByCycle, String transactionMode) {
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
        this.flushedByCycle = flushedByCycle;
        this.writes = new AttemptWrites(tables, jdbc, own, relay, instance,
                cycleTable.column("transaction_mode").isPresent() ? transactionMode : null);
        this.queries = new AttemptQueries(tables, jdbc, own, relay, this::flush);
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
     * Records a cycle's attempts before anything is sent, and commits them: one row of {@value #PACKS} where the log
     * is packed, else one insert of arrays (PostgreSQL) or multi-row inserts (as many rows per statement as the
     * dialect allows), in a transaction of its own, the only attempt-log write before the broker, after the unwritten
     * finish of the previous cycle, if any. If it fails, neither is written and the finish stays unwritten.
     */
    public synchronized void attempted(String cycle, List<Attempt> attempts, Instant at) {
        if (attempts.isEmpty()) {
            return;
        }
        Object time = tables.time(at);
        List<Statement> statements = new ArrayList<>();
        if (flushedByCycle) {
            writes.noFlushWait(statements);
        }
        if (unwritten != null) {
            writes.finish(unwritten, statements);
        }
        writes.insert(cycle, attempts, time, statements);
        writes.write(statements);
        unwritten = null;
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
     * The broker's answer to a cycle's batch: the listed rows' own observations (by row key), and {@code rest} for its
     * other sent rows. {@link #NO_ANSWER} when none came (the cycle failed before or while it learned it).
     */
    public record BrokerAnswer(Map<String, Attempt> byRowKey, Observation rest, String restDetail) {
        public static final BrokerAnswer NO_ANSWER = new BrokerAnswer(Map.of(), Observation.SENT, null);
    }

    /**
     * After the cycle's transaction ended: the broker's answer and what the mark did (one finish row for the cycle,
     * plus one update per row with an answer or a parking of its own, which are rare); nothing for a cycle whose
     * attempts were not recorded. In a committed cycle confirmed rows
     * become published, charged ones retry, {@code parked} rows FAILED: kept until the next cycle's insert or
     * {@link #flush} writes it. In a rolled back one every row without a mark state becomes ROLLED_BACK, written at
     * once in a transaction of its own (with any unwritten finish). A process that dies before the finish is written
     * leaves the cycle's attempts SENT/NONE: they may have been delivered.
     */
    public synchronized void finished(String cycle, BrokerAnswer answer, boolean committed, Collection<String> parked) {
        if (!cycle.equals(lastCycle)) {
            return; // no attempt of it on record: nothing to finish
        }
        Finish f = new Finish(cycle, lastTime, answer, committed, List.copyOf(parked), lastRecorded);
        if (committed && unwritten == null) {
            unwritten = f;
            return;
        }
        List<Statement> statements = new ArrayList<>();
        writes.noFlushWait(statements);
        if (unwritten != null) {
            writes.finish(unwritten, statements);
        }
        writes.finish(f, statements);
        writes.write(statements);
        unwritten = null;
    }

    /**
     * Writes the unwritten finish of the last committed cycle, if any, in a transaction of its own. Where the dialect
     * allows it (PostgreSQL), this transaction does not wait for its log flush: a crash of the database can lose it,
     * which then reads SENT/NONE, as a crash of the relay before it would; the next insert's flush makes it durable.
     */
    public synchronized void flush() {
        Finish f = unwritten;
        if (f == null) {
            return;
        }
        List<Statement> statements = new ArrayList<>();
        writes.noFlushWait(statements);
        writes.finish(f, statements);
        writes.write(statements);
        unwritten = null;
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

    /** How the report names an aggregate: {@code type:id}. */
    public static String aggregateKey(OutboxRow row) {
        if (row.aggregateId() == null) {
            return null;
        }
        return SqlLists.truncate((row.aggregateType() == null ? "" : row.aggregateType() + ":") + row.aggregateId(),
                600);
    }
}
