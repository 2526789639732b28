package io.legacygateway.adapters.outbox;

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
                OutboxStatements.Bind.constant("source of the log's entries", source));
    }

    /** A condition: the row waits here for a retry later than the cycle's time ({@link OutboxStatements.Param#NOW}). */
    Fragment notDue(String keyText) {
        return Fragment.of(dialect.sql("rejection.exists.notDue", Map.of("rejections", table, "keyText", keyText)),
                OutboxStatements.Bind.constant("source of the log's entries", source),
                OutboxStatements.Bind.of(OutboxStatements.Param.NOW, "the cycle's time as the log takes it",
                        v -> time((Instant) v)));
    }

    /** The entries of these rows (keys as text), by key. */
    public Map<String, Entry> entries(Collection<String> keys) {
        Map<String, Entry> found = new LinkedHashMap<>();
        for (List<String> chunk : chunks(keys)) {
            List<Object> binds = new ArrayList<>();
            binds.add(source);
            binds.addAll(chunk);
            jdbc.query(dialect.sql("rejection.entries", Map.of("rejections", table, "keys", marks(chunk.size()))),
                    rs -> {
                        Entry e = entry(rs);
                        found.put(e.rowKey(), e);
                    }, binds.toArray());
        }
        return found;
    }

    /** Records failed attempts (inserting or replacing each row's entry), in the caller's transaction. */
    public void record(List<OutboxFailure> failures, Instant at) {
        if (failures.isEmpty()) {
            return;
        }
        jdbc.batchUpdate(dialect.sql("rejection.upsert", Map.of("rejections", table)), failures.stream()
                .map(f -> new Object[] {source, f.row().keyText(), relay, truncate(f.row().eventId(), 255),
                        truncate(f.reason(), MAX_REASON), f.attempts(),
                        (f.parked() ? State.FAILED : State.RETRY).name(),
                        f.nextRetryAt() == null ? null : time(f.nextRetryAt()), time(at)})
                .toList());
    }

    /** Removes the entries of these rows (published, or gone), in the caller's transaction. */
    public void clear(Collection<String> keys) {
        for (List<String> chunk : chunks(keys)) {
            List<Object> binds = new ArrayList<>();
            binds.add(source);
            binds.addAll(chunk);
            jdbc.update(dialect.sql("rejection.clear", Map.of("rejections", table, "keys", marks(chunk.size()))),
                    binds.toArray());
        }
    }

    /** Entries waiting for a retry that is due at {@code now}, oldest failure first. */
    public List<Entry> due(Instant now, int limit) {
        return jdbc.query(dialect.sql("rejection.due", Map.of("rejections", table)), (rs, n) -> entry(rs), source,
                time(now), limit);
    }

    /** Entries parked as FAILED, oldest first. */
    public List<Entry> failed(int limit) {
        return jdbc.query(dialect.sql("rejection.failed", Map.of("rejections", table)), (rs, n) -> entry(rs), source,
                limit);
    }

    /** An operator's retry: FAILED entries become due now with no attempts counted. Returns the entries changed. */
    public int reset(Collection<String> keys) {
        int changed = 0;
        for (List<String> chunk : chunks(keys)) {
            List<Object> binds = new ArrayList<>();
            binds.add(source);
            binds.addAll(chunk);
            changed += jdbc.update(dialect.sql("rejection.reset", Map.of("rejections", table,
                    "keys", marks(chunk.size()))), binds.toArray());
        }
        return changed;
    }

    public long countFailed() {
        Long n = jdbc.queryForObject(dialect.sql("rejection.countFailed", Map.of("rejections", table)), Long.class,
                source);
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
