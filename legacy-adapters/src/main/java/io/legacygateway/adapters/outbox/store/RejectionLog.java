package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.outbox.OutboxFailure;
import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.outbox.sql.Fragment;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Bind;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Param;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The gateway's own record of rows whose publication failed, for what the mark mode cannot keep on the row: table
 * {@value #TABLE} (DDL {@code ddl/<db>/relay-state.sql}), one entry per source table and row key, holding the failed
 * attempts, the reason of the last one, and the state: {@link State#RETRY} (the row is attempted again at
 * {@code next_retry_at}) or {@link State#FAILED} (parked until an operator retries it). Recording a row again (its next
 * attempt, or a cycle re-read after a crash) replaces its entry.
 *
 * <p>Writes go through the caller's transaction on the log's datasource: an entry becomes visible only with the cycle
 * that made it. Times are written from the relay's clock, never from the database's, so that tests can pin them and a
 * naive timestamp column ({@code DATETIME}) means UTC.
 */
public final class RejectionLog {

    public static final String TABLE = "gateway_outbox_rejection";
    /** Longest reason kept. */
    public static final int MAX_REASON = 2000;
    private static final int IN_LIST = 500;

    /** What became of a row whose attempt failed. */
    public enum State {
        /** Waits for its next attempt. */
        RETRY,
        /** Parked: no further attempt until an operator retries it. */
        FAILED
    }

    /** One entry, as stored. */
    public record Entry(String rowKey, String eventId, String reason, int attempts, State state, Instant nextRetryAt,
                        Instant at) {
    }

    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    private final String relay;
    private final String source;
    private final DataSource dataSource;
    private final String table;
    private final ColumnKind timeKind;
    /** The log's statements, rendered once here. */
    private final OutboxStatements statements;

    /**
     * @param source   names the legacy table across datasources, for example {@code sales/outbox}
     * @param property the parameter that chose the datasource, named when the table is missing or outdated
     * @throws IllegalArgumentException naming the property when the table does not exist or lacks the columns of the
     *                                  current {@code relay-state.sql}
     */
    public RejectionLog(DataSource dataSource, Dialect dialect, String relay, String source, String property) {
        this(dataSource, dialect, relay, source, property, TableInspector.inspect(dataSource, dialect,
                new TableName(null, TABLE), property + " (the gateway's table " + TABLE
                        + ", created by initialize-schema or " + dialect.ddlResource("relay-state.sql") + ")"));
    }

    /**
     * The log where its table exists and the relay's user may read it, for a relay that needs it only as the place of
     * last resort (a row that refuses every write is parked here, and every claim then skips the rows parked in it);
     * {@code null} otherwise, so that a relay that never needed the table keeps working without grants on it.
     *
     * @throws IllegalArgumentException naming the property when the table exists but lacks current columns
     */
    public static RejectionLog ifPresent(DataSource dataSource, Dialect dialect, String relay, String source,
                                         String property) {
        TableInspector.Table stored;
        try {
            stored = TableInspector.inspect(dataSource, dialect, new TableName(null, TABLE), property);
        } catch (IllegalArgumentException absent) {
            return null;
        }
        RejectionLog log = new RejectionLog(dataSource, dialect, relay, source, property, stored);
        try {
            log.countFailed();
            return log;
        } catch (DataAccessException notReadable) {
            return null;
        }
    }

    /** The log over a table already inspected (rendering statements without a database, as the golden files do). */
    static RejectionLog of(DataSource dataSource, Dialect dialect, String relay, String source,
                           TableInspector.Table stored) {
        return new RejectionLog(dataSource, dialect, relay, source, "dataSource", stored);
    }

    private RejectionLog(DataSource dataSource, Dialect dialect, String relay, String source, String property,
                         TableInspector.Table stored) {
        String script = dialect.ddlResource("relay-state.sql");
        for (String column : List.of("attempts", "state", "next_retry_at")) {
            if (stored.column(column).isEmpty()) {
                throw new IllegalArgumentException(property + ": the gateway's table " + TABLE + " has no column '"
                        + column + "'; apply the current " + script + " (it adds the columns attempts, state and"
                        + " next_retry_at)");
            }
        }
        this.dataSource = dataSource;
        this.jdbc = new JdbcTemplate(dataSource);
        this.dialect = dialect;
        this.relay = relay;
        this.source = source;
        this.table = dialect.quote(stored.name());
        this.timeKind = stored.column("next_retry_at").flatMap(ColumnKind::of).orElse(ColumnKind.TIMESTAMP_TZ);
        this.statements = render();
    }

    private OutboxStatements render() {
        Map<String, String> t = Map.of("rejections", table);
        Map<String, String> listed = Map.of("rejections", table, "keys", OutboxStatements.LIST);
        Bind src = Bind.constant("source of the log's entries", source);
        Bind keys = Bind.of(Param.KEY_TEXTS);
        Bind limit = Bind.of(Param.LIMIT);
        return OutboxStatements.builder()
                .add("log.entries", dialect.sql("rejection.entries", listed), List.of(src, keys))
                .add("log.record", dialect.sql("rejection.upsert", t), List.of(src, Bind.of(Param.KEY_TEXT),
                        Bind.constant("relay", relay), Bind.of(Param.EVENT_ID), Bind.of(Param.REASON),
                        Bind.of(Param.ATTEMPTS), Bind.of(Param.STATE), timeOf(Param.NEXT_RETRY_AT), timeOf(Param.AT)))
                .add("log.clear", dialect.sql("rejection.clear", listed), List.of(src, keys))
                .add("log.due", dialect.sql("rejection.due", t), List.of(src, timeOf(Param.NOW), limit))
                .add("log.failed", dialect.sql("rejection.failed", t), List.of(src, limit))
                .add("log.reset", dialect.sql("rejection.reset", listed), List.of(src, keys))
                .add("log.countFailed", dialect.sql("rejection.countFailed", t), List.of(src))
                .build();
    }

    private Bind timeOf(Param param) {
        return Bind.of(param, param.meaning() + " as the log takes it", v -> v == null ? null : time((Instant) v));
    }

    /** The log's statements, rendered when it was built (golden files, {@code relay explain}). */
    public OutboxStatements statements() {
        return statements;
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /** The source name entries are recorded under. */
    public String source() {
        return source;
    }

    /** A condition: the row whose key renders as {@code keyText} is parked as FAILED here. */
    Fragment failed(String keyText) {
        return Fragment.of(dialect.sql("rejection.exists.failed", Map.of("rejections", table, "keyText", keyText)),
                Bind.constant("source of the log's entries", source));
    }

    /** A condition: the row waits here for a retry later than the cycle's time ({@link OutboxStatements.Param#NOW}). */
    Fragment notDue(String keyText) {
        return Fragment.of(dialect.sql("rejection.exists.notDue", Map.of("rejections", table, "keyText", keyText)),
                Bind.constant("source of the log's entries", source), timeOf(Param.NOW));
    }

    /** The entries of these rows (keys as text), by key. */
    public Map<String, Entry> entries(Collection<String> keys) {
        Map<String, Entry> found = new LinkedHashMap<>();
        OutboxStatements.Statement read = statements.get("log.entries");
        for (List<String> chunk : chunks(keys)) {
            Map<Param, Object> values = Map.of(Param.KEY_TEXTS, chunk);
            jdbc.query(read.sql(values), rs -> {
                Entry e = entry(rs);
                found.put(e.rowKey(), e);
            }, read.values(values));
        }
        return found;
    }

    /** Records failed attempts (inserting or replacing each row's entry), in the caller's transaction. */
    public void record(List<OutboxFailure> failures, Instant at) {
        if (failures.isEmpty()) {
            return;
        }
        OutboxStatements.Statement upsert = statements.get("log.record");
        jdbc.batchUpdate(upsert.sql(), failures.stream().map(f -> {
            Map<Param, Object> values = new EnumMap<>(Param.class);
            values.put(Param.KEY_TEXT, f.row().keyText());
            values.put(Param.EVENT_ID, truncate(f.row().eventId(), 255));
            values.put(Param.REASON, truncate(f.reason(), MAX_REASON));
            values.put(Param.ATTEMPTS, f.attempts());
            values.put(Param.STATE, (f.parked() ? State.FAILED : State.RETRY).name());
            values.put(Param.NEXT_RETRY_AT, f.nextRetryAt());
            values.put(Param.AT, at);
            return upsert.values(values);
        }).toList());
    }

    /** Removes the entries of these rows (published, or gone), in the caller's transaction. */
    public void clear(Collection<String> keys) {
        OutboxStatements.Statement clear = statements.get("log.clear");
        for (List<String> chunk : chunks(keys)) {
            Map<Param, Object> values = Map.of(Param.KEY_TEXTS, chunk);
            jdbc.update(clear.sql(values), clear.values(values));
        }
    }

    /** Entries waiting for a retry that is due at {@code now}, oldest failure first. */
    public List<Entry> due(Instant now, int limit) {
        OutboxStatements.Statement due = statements.get("log.due");
        return jdbc.query(due.sql(), (rs, n) -> entry(rs), due.values(Map.of(Param.NOW, now, Param.LIMIT, limit)));
    }

    /** Entries parked as FAILED, oldest first. */
    public List<Entry> failed(int limit) {
        OutboxStatements.Statement failed = statements.get("log.failed");
        return jdbc.query(failed.sql(), (rs, n) -> entry(rs), failed.values(Map.of(Param.LIMIT, limit)));
    }

    /** An operator's retry: FAILED entries become due now with no attempts counted. Returns the entries changed. */
    public int reset(Collection<String> keys) {
        int changed = 0;
        OutboxStatements.Statement reset = statements.get("log.reset");
        for (List<String> chunk : chunks(keys)) {
            Map<Param, Object> values = Map.of(Param.KEY_TEXTS, chunk);
            changed += jdbc.update(reset.sql(values), reset.values(values));
        }
        return changed;
    }

    public long countFailed() {
        OutboxStatements.Statement count = statements.get("log.countFailed");
        Long n = jdbc.queryForObject(count.sql(), Long.class, count.values(Map.of()));
        return n == null ? 0 : n;
    }

    private Entry entry(ResultSet rs) throws SQLException {
        return new Entry(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4),
                State.valueOf(rs.getString(5).strip()), timeKind.readInstant(rs, 6, ZoneOffset.UTC),
                timeKind.readInstant(rs, 7, ZoneOffset.UTC));
    }

    private Object time(Instant instant) {
        return timeKind.bindInstant(instant, ZoneOffset.UTC);
    }

    static List<List<String>> chunks(Collection<String> keys) {
        List<String> all = List.copyOf(keys);
        List<List<String>> chunks = new ArrayList<>();
        for (int i = 0; i < all.size(); i += IN_LIST) {
            chunks.add(all.subList(i, Math.min(all.size(), i + IN_LIST)));
        }
        return chunks;
    }

    static String marks(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
