package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.outbox.sql.SqlLists;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The writes of the {@link AttemptLog}: the insert of a cycle's attempts (one row of the packs table where the log is
 * packed, else one row per attempt), a cycle's finish, and running a list of them in one transaction of its own or in
 * the cycle's (see {@link AttemptLog} for when each is written and what survives).
 */
final class AttemptWrites {

    /** Longest detail kept. */
    static final int DETAIL = 2000;
    /** Binds per attempt in {@code attempt.insertRows}. */
    private static final int BINDS_PER_ROW = 9;

    /** One statement of a log transaction. */
    record Statement(String sql, Object... binds) {
    }

    /**
     * A committed or rolled-back cycle's finish; {@code recorded}:
     * the cycle's attempts recorded with an observation other than SENT, by row key (what a packed attempt's override
     * keeps when only its mark is its own).
     */
    record Finish(String cycle, Object time, BrokerAnswer answer, boolean committed, List<String> parked,
                  Map<String, Attempt> recorded) {
    }

    private final AttemptTables tables;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate own;
    private final String relay;
    private final String instance;
    /** The relay's transactionMode, written with each cycle's finish; {@code null} where the table has no column. */
    private final String transactionMode;
    /** The multi-row insert by number of rows: a full batch always renders (and the driver prepares) the same text. */
    private final Map<Integer, String> insertSql = new ConcurrentHashMap<>();

    /**
     * @param own             a transaction of its own ({@code REQUIRES_NEW}) on the log's datasource
     * @param transactionMode the relay's mode, or {@code null} when the cycles table has no {@code transaction_mode}
     */
    AttemptWrites(AttemptTables tables, JdbcTemplate jdbc, TransactionTemplate own, String relay, String instance,
                  String transactionMode) {
        this.tables = tables;
        this.jdbc = jdbc;
        this.own = own;
        this.relay = relay;
        this.instance = instance;
        this.transactionMode = transactionMode;
    }

    /**
     * The inserts of a cycle's attempts at {@code time}, bound as the column takes it: one statement of arrays where the
     * dialect has {@code attempt.insertColumns} (PostgreSQL), else multi-row inserts of as many rows as the dialect's
     * binds per statement allow (one statement for a whole batch, but on SQL Server 222 rows each). Not a JDBC batch:
     * MySQL's driver sends a batch as one statement per row unless the URL sets {@code rewriteBatchedStatements}.
     */
    void insert(String cycle, List<Attempt> attempts, Object time, List<Statement> out) {
        if (tables.packed()) {
            out.add(insertPack(cycle, attempts, time));
            return;
        }
        if (tables.dialect().has("attempt.insertColumns")) {
            out.add(insertColumns(cycle, attempts, time));
            return;
        }
        int rows = tables.dialect().maxBindsPerStatement() / BINDS_PER_ROW;
        for (int from = 0; from < attempts.size(); from += rows) {
            out.add(insertRows(cycle, attempts.subList(from, Math.min(attempts.size(), from + rows)), time));
        }
    }

    private Statement insertPack(String cycle, List<Attempt> attempts, Object time) {
        String[][] columns = columns(attempts);
        return new Statement(tables.sql("attempt.packed.insert"), tables.attempts(), relay, cycle, time, instance,
                columns[0], columns[1], columns[2], columns[3], columns[4]);
    }

    private Statement insertColumns(String cycle, List<Attempt> attempts, Object time) {
        String[][] columns = columns(attempts);
        return new Statement(tables.sql("attempt.insertColumns"), relay, cycle, time, instance, columns[0], columns[1],
                columns[2], columns[3], columns[4]);
    }

    /** The attempts' row keys, event ids, aggregate keys, observations and details, each as one array. */
    private static String[][] columns(List<Attempt> attempts) {
        int n = attempts.size();
        String[] keys = new String[n];
        String[] eventIds = new String[n];
        String[] aggregates = new String[n];
        String[] observations = new String[n];
        String[] details = new String[n];
        for (int i = 0; i < n; i++) {
            Attempt a = attempts.get(i);
            keys[i] = a.row().keyText();
            eventIds[i] = SqlLists.truncate(a.row().eventId(), 255);
            aggregates[i] = Attempt.aggregateKey(a.row());
            observations[i] = a.observation().name();
            details[i] = SqlLists.truncate(a.detail(), DETAIL);
        }
        return new String[][] {keys, eventIds, aggregates, observations, details};
    }

    private Statement insertRows(String cycle, List<Attempt> attempts, Object time) {
        String sql = insertSql.computeIfAbsent(attempts.size(), n -> tables.sql("attempt.insertRows",
                Map.of("rows", String.join(", ", Collections.nCopies(n, "(?, ?, ?, ?, ?, ?, ?, ?, ?)")))));
        Object[] binds = new Object[attempts.size() * BINDS_PER_ROW];
        int i = 0;
        for (Attempt a : attempts) {
            binds[i++] = relay;
            binds[i++] = cycle;
            binds[i++] = a.row().keyText();
            binds[i++] = SqlLists.truncate(a.row().eventId(), 255);
            binds[i++] = Attempt.aggregateKey(a.row());
            binds[i++] = time;
            binds[i++] = instance;
            binds[i++] = a.observation().name();
            binds[i++] = SqlLists.truncate(a.detail(), DETAIL);
        }
        return new Statement(sql, binds);
    }

    /**
     * A cycle's finish: the rows' own answers and marks (one row per attempt: one update per row with an answer of its
     * own, and in a committed cycle one per parked row; packed: one override row per row with an answer or a parking
     * of its own), and the cycle's finish row.
     */
    void finish(Finish f, List<Statement> out) {
        if (tables.packed()) {
            overrides(f, out);
        } else {
            ownAnswers(f, out);
        }
        MarkState mark = f.committed() ? markOf(f.answer().rest()) : MarkState.ROLLED_BACK;
        String detail = SqlLists.truncate(f.answer().restDetail(), DETAIL);
        out.add(transactionMode == null
                ? new Statement(tables.sql("attempt.finish"), f.cycle(), relay, f.answer().rest().name(), mark.name(),
                        detail, f.time())
                : new Statement(tables.sql("attempt.finishWithMode"), f.cycle(), relay, f.answer().rest().name(),
                        mark.name(), detail, f.time(), transactionMode));
        if (f.committed() && !tables.packed()) {
            f.parked().forEach(key -> out.add(new Statement(tables.sql("attempt.markRow"),
                    MarkState.FAILED.name(), relay, key, f.cycle())));
        }
    }

    /**
     * A packed cycle's overrides: one row per attempt with an answer of its own or parked by a committed cycle, holding
     * its whole own state (answer, else what was recorded, else SENT; FAILED when parked, else none).
     */
    private void overrides(Finish f, List<Statement> out) {
        Set<String> keys = new LinkedHashSet<>(f.answer().byRowKey().keySet());
        if (f.committed()) {
            keys.addAll(f.parked());
        }
        for (String key : keys) {
            Attempt own = f.answer().byRowKey().getOrDefault(key, f.recorded().get(key));
            boolean parked = f.committed() && f.parked().contains(key);
            out.add(new Statement(tables.sql("attempt.packed.override"), relay, f.cycle(), key, f.time(), instance,
                    own == null ? Observation.SENT.name() : own.observation().name(),
                    parked ? MarkState.FAILED.name() : MarkState.NONE.name(),
                    own == null ? null : SqlLists.truncate(own.detail(), DETAIL)));
        }
    }

    private void ownAnswers(Finish f, List<Statement> out) {
        f.answer().byRowKey().forEach((key, a) -> out.add(new Statement(tables.sql("attempt.observeRow"),
                a.observation().name(), SqlLists.truncate(a.detail(), DETAIL), relay, key, f.cycle())));
    }

    /** What a committed cycle's mark did with a row of this observation (as attempt.effective's CASE). */
    private static MarkState markOf(Observation o) {
        return switch (o) {
            case CONFIRMED, DUPLICATE, FILTERED -> MarkState.PUBLISHED;
            case REFUSED, NOT_SENT -> MarkState.RETRY;
            case SENT, DEFERRED, FAILED, OUTCOME_UNKNOWN -> MarkState.UNCHANGED;
        };
    }

    /** Where the dialect allows it (PostgreSQL), lets the transaction commit without waiting for its log flush. */
    void noFlushWait(List<Statement> statements) {
        if (tables.dialect().has("attempt.finish.noFlushWait")) {
            statements.add(new Statement(tables.sql("attempt.finish.noFlushWait")));
        }
    }

    /**
     * Runs the statements in one transaction of its own, bound by hand (raw JDBC: the multi-row insert's binds are
     * most of the log's work on the relay's thread). Where the driver sends statements joined by {@code ;} in one
     * round trip (PostgreSQL: {@code attempt.joinStatements}), they go as one statement, so that a cycle's log
     * transaction costs two round trips (statements, commit).
     */
    void write(List<Statement> statements) {
        own.executeWithoutResult(s -> write(jdbc, statements));
    }

    /** Runs the statements, joined as above, on {@code target}'s connection: in the transaction it is bound to. */
    void write(JdbcTemplate target, List<Statement> statements) {
        List<Statement> run = statements;
        if (statements.size() > 1 && tables.dialect().has("attempt.joinStatements")) {
            String separator = tables.dialect().sql("attempt.joinStatements", Map.of()) + " ";
            run = List.of(new Statement(String.join(separator, statements.stream().map(Statement::sql).toList()),
                    statements.stream().flatMap(st -> Arrays.stream(st.binds())).toArray()));
        }
        List<Statement> all = run;
        target.execute((ConnectionCallback<Void>) c -> {
            for (Statement st : all) {
                try (PreparedStatement ps = c.prepareStatement(st.sql())) {
                    Object[] binds = st.binds();
                    for (int i = 0; i < binds.length; i++) {
                        if (binds[i] == null) {
                            ps.setNull(i + 1, Types.VARCHAR); // every nullable bind is text
                        } else {
                            ps.setObject(i + 1, binds[i]);
                        }
                    }
                    ps.execute();
                }
            }
            return null;
        });
    }
}
