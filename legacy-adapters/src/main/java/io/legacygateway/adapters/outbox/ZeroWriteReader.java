package io.legacygateway.adapters.outbox;

import static io.legacygateway.adapters.outbox.OutboxColumn.CREATED_AT;
import static io.legacygateway.adapters.outbox.OutboxColumn.KEY;
import static io.legacygateway.adapters.outbox.OutboxColumn.ORDER;

import io.legacygateway.adapters.Failures;
import io.legacygateway.adapters.outbox.OutboxStatements.Bind;
import io.legacygateway.adapters.outbox.OutboxStatements.Param;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.Dialect.CommitHorizon;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

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
 * position, and a crash re-reads the batch (the broker's duplicate detection drops the copies).
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
 *       {@code settleTime}. Refused when the column or the privilege is missing.</li>
 *   <li>Other databases: refused at startup.</li>
 * </ul>
 * Not guaranteed: exactly-once (see above), order across windows other than by the mark.
 */
public final class ZeroWriteReader implements OutboxSource {

    public static final String TABLE = "gateway_outbox_position";

    /** Where a new relay starts. */
    public enum StartFrom {
        /** With every row already in the table. */
        BEGINNING,
        /** With rows whose transactions end after the relay first started. */
        NOW
    }

    /** A relay's place: the open window {@code [low, high)} (high {@code null}: none open) and the cursor in it. */
    record Position(String low, String high, String afterOrder, String afterKey) {
        Position open(String horizon) {
            return new Position(low, horizon, null, null);
        }

        Position close() {
            return new Position(high, null, null, null);
        }
    }

    private final DataSource legacy;
    private final DataSource state;
    private final Dialect dialect;
    private final Dialect stateDialect;
    private final OutboxMapping mapping;
    private final String relay;
    private final String source;
    private final RejectionLog rejections;
    private final Duration settleTime;
    private final OutboxRowReader reader;
    private final JdbcTemplate legacyJdbc;
    private final JdbcTemplate stateJdbc;
    private final ColumnKind markKind;
    private final List<OutboxColumn> cursor;
    private final String horizonSql;
    private final String visibility;
    private final String positions;
    /** The reads of the legacy table, every variant of the window rendered once here. */
    private final OutboxStatements statements;
    /** Keys of the last claim that have an entry in the log (cleared when published). Cycles are sequential. */
    private volatile Set<String> recorded = Set.of();

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
        this.legacy = legacy;
        this.state = state;
        this.dialect = dialect;
        this.stateDialect = stateDialect;
        this.mapping = mapping;
        this.relay = relay;
        this.source = source;
        this.rejections = rejections;
        this.settleTime = settleTime;
        this.legacyJdbc = new JdbcTemplate(legacy);
        this.stateJdbc = new JdbcTemplate(state);
        this.reader = new OutboxRowReader(dialect, mapping, "t");
        this.cursor = mapping.column(ORDER).equals(mapping.column(KEY)) ? List.of(ORDER) : List.of(ORDER, KEY);
        this.positions = stateDialect.quote(TableInspector.inspect(state, stateDialect, new TableName(null, TABLE),
                label.apply("stateDataSource") + " (the gateway's table " + TABLE + ", created by initialize-schema or "
                + stateDialect.ddlResource("relay-state.sql") + ")").name());
        if (cursor.size() > 1 && !Set.of(ColumnKind.INTEGER, ColumnKind.DECIMAL, ColumnKind.TEXT, ColumnKind.CHAR,
                ColumnKind.UUID).contains(mapping.kind(KEY))) {
            throw new IllegalArgumentException(label.apply(KEY.parameter()) + ": ZERO_WRITE keeps the key in its"
                    + " cursor and needs a text, number or UUID key, not " + mapping.kind(KEY).description());
        }
        CommitHorizon method = dialect.commitHorizon();
        switch (method) {
            case TRANSACTION_IDS -> {
                this.markKind = ColumnKind.INTEGER;
                this.visibility = dialect.sql("zerowrite.visibility", Map.of());
            }
            case INSERT_TIME -> {
                requireDatabaseInsertTime(mapping, label);
                this.markKind = mapping.kind(CREATED_AT);
                this.visibility = dialect.sql("zerowrite.visibility",
                        Map.of("createdAt", "t." + dialect.quote(mapping.column(CREATED_AT))));
            }
            default -> throw new IllegalArgumentException(label.apply("markMode") + ": ZERO_WRITE needs a way to prove"
                    + " that no running transaction can still commit a row behind the relay's position, and the gateway"
                    + " has none for " + dialect.id() + " (PostgreSQL and MariaDB only); use STATUS, TIMESTAMP or"
                    + " DELETE, or capture changes with triggers");
        }
        this.horizonSql = dialect.sql("zerowrite.horizon", Map.of());
        this.statements = render();
        String required = label.apply("markMode") + ": ZERO_WRITE";
        try {
            horizon();
        } catch (DataAccessException | IllegalStateException e) {
            throw new IllegalArgumentException(required + " cannot read the commit horizon of " + dialect.id() + " ("
                    + Failures.rootMessage(e) + ")" + (method == CommitHorizon.INSERT_TIME
                    ? "; the gateway's database user needs the PROCESS privilege (GRANT PROCESS ON *.* TO ...)" : ""), e);
        }
        try {
            read(new Position(null, markKind.encode(markKind.decode(horizon())), null, null), 0);
        } catch (DataAccessException e) {
            throw new IllegalArgumentException(required + " cannot read table '" + mapping.table().name() + "' ("
                    + Failures.rootMessage(e) + ")", e);
        }
        initialise(startFrom, label);
    }

    private static void requireDatabaseInsertTime(OutboxMapping mapping, UnaryOperator<String> label) {
        String parameter = label.apply(CREATED_AT.parameter());
        if (!mapping.has(CREATED_AT)) {
            throw new IllegalArgumentException(parameter + ": ZERO_WRITE on MariaDB needs an insert-time column filled by"
                    + " the database (for example created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)); the"
                    + " table has none, so a late commit could not be told from an old row");
        }
        TableInspector.Column column = mapping.table().column(mapping.column(CREATED_AT)).orElseThrow();
        String def = column.defaultValue() == null ? "" : column.defaultValue().toLowerCase(Locale.ROOT);
        if (!(def.startsWith("current_timestamp") || def.startsWith("now("))
                || mapping.kind(CREATED_AT) != ColumnKind.TIMESTAMP) {
            throw new IllegalArgumentException(parameter + ": column '" + column.name() + "' must be a DATETIME or"
                    + " TIMESTAMP filled by the database (DEFAULT CURRENT_TIMESTAMP(6)); it is " + column.typeName()
                    + " with default " + column.defaultValue() + ", and a time written by the application cannot"
                    + " prove that a row is final");
        }
    }

    private void initialise(StartFrom startFrom, UnaryOperator<String> label) {
        Position start = new Position(startFrom == StartFrom.NOW ? markKind.encode(markKind.decode(horizon())) : null,
                null, null, null);
        try {
            new TransactionTemplate(new DataSourceTransactionManager(state)).executeWithoutResult(tx ->
                    stateJdbc.update(stateDialect.sql("position.insert", Map.of("positions", positions)), relay, source,
                            start.low()));
        } catch (DuplicateKeyException existing) {
            // kept from an earlier run
        }
        String owner = stateJdbc.queryForObject(stateDialect.sql("position.source", Map.of("positions", positions)),
                String.class, relay);
        if (!source.equals(owner)) {
            throw new IllegalArgumentException(label.apply("relay") + ": the position of relay '" + relay + "' in "
                    + TABLE + " belongs to '" + owner + "', not '" + source + "'; choose another relay name (or delete"
                    + " that row to start this table from scratch)");
        }
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
        Position p = lock();
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

    /** Rows whose retry is due, read again from the legacy table; entries of rows that are gone are removed. */
    private List<OutboxRow> dueRetries(Instant now, int limit) {
        List<RejectionLog.Entry> due = rejections.due(now, limit);
        if (due.isEmpty()) {
            return List.of();
        }
        List<OutboxRow> rows = byKeys(due.stream().map(RejectionLog.Entry::rowKey).toList());
        Set<String> found = new HashSet<>();
        rows.forEach(r -> found.add(r.keyText()));
        List<String> gone = due.stream().map(RejectionLog.Entry::rowKey).filter(k -> !found.contains(k)).toList();
        rejections.clear(gone);
        return rows;
    }

    /** The next rows of the open (or a new) window, moving the position past them. */
    private List<OutboxRow> window(Position p, int limit) {
        for (int attempt = 0; attempt < 2; attempt++) {
            if (p.high() == null) {
                String h = markKind.encode(markKind.decode(horizon()));
                if (p.low() != null && markKind.compare(markKind.decode(h), markKind.decode(p.low())) <= 0) {
                    break; // nothing has become final since the last window
                }
                p = p.open(h);
            }
            List<OutboxRow> rows = read(p, limit);
            if (rows.size() == limit) {
                OutboxRow last = rows.get(rows.size() - 1);
                save(new Position(p.low(), p.high(), mapping.kind(ORDER).encode(last.order()),
                        cursor.size() > 1 ? mapping.kind(KEY).encode(keyComparable(last)) : null));
                return rows;
            }
            p = p.close();
            if (!rows.isEmpty()) {
                save(p);
                return rows;
            }
        }
        save(p);
        return List.of();
    }

    /** Rows of the legacy table by key (as text), in outbox order. */
    private List<OutboxRow> byKeys(Collection<String> keys) {
        List<OutboxRow> rows = new ArrayList<>();
        OutboxStatements.Statement byKeys = statements.get("byKeys");
        for (List<String> chunk : RejectionLog.chunks(keys)) {
            Map<Param, Object> values = Map.of(Param.KEY_TEXTS, chunk);
            rows.addAll(legacyJdbc.query(byKeys.sql(values), (rs, n) -> reader.read(rs), byKeys.values(values)));
        }
        ColumnKind order = mapping.kind(ORDER);
        rows.sort((a, b) -> order.compare(a.order(), b.order()));
        return rows;
    }

    private Object keyComparable(OutboxRow row) {
        // the key as the reader returns it is the driver's object; take the comparable form of its kind
        ColumnKind kind = mapping.kind(KEY);
        Object key = row.key();
        return kind.decode(kind == ColumnKind.CHAR ? key.toString().stripTrailing() : key.toString());
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
        byKeys(entries.stream().map(RejectionLog.Entry::rowKey).toList()).forEach(r -> rows.put(r.keyText(), r));
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

    /** Rows not yet published (beyond the position, or inside the open window after its cursor), and FAILED entries. */
    @Override
    public Backlog backlog(Instant now) {
        Position p = position();
        OutboxStatements.Statement counted = statements.get("backlog.count." + backlogVariant(p));
        Long count = legacyJdbc.queryForObject(counted.sql(), Long.class, counted.values(values(p, 0)));
        Instant oldest = null;
        if (count != null && count > 0) {
            List<OutboxRow> first = unread(p, 1);
            if (!first.isEmpty()) {
                oldest = first.get(0).createdAt() != null ? first.get(0).createdAt() : first.get(0).occurredAt();
            }
        }
        return new Backlog(count == null ? 0 : count, oldest, rejections.countFailed());
    }

    /** Rows waiting for a retry (from the log), then rows beyond the position. */
    @Override
    public List<OutboxRow> waiting(int limit) {
        List<RejectionLog.Entry> retrying = rejections.due(Instant.parse("9999-12-31T00:00:00Z"), limit);
        List<OutboxRow> rows = new ArrayList<>();
        Map<String, Integer> attempts = new HashMap<>();
        retrying.forEach(e -> attempts.put(e.rowKey(), e.attempts()));
        byKeys(List.copyOf(attempts.keySet())).forEach(r -> rows.add(r.withRetryCount(attempts.get(r.keyText()))));
        if (rows.size() < limit) {
            rows.addAll(unread(position(), limit - rows.size()));
        }
        return rows;
    }

    private Position position() {
        List<Position> found = stateJdbc.query(stateDialect.sql("position.read", Map.of("positions", positions)),
                (rs, n) -> new Position(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)), relay);
        return found.isEmpty() ? new Position(null, null, null, null) : found.get(0);
    }

    private List<OutboxRow> unread(Position p, int limit) {
        OutboxStatements.Statement unread = statements.get("backlog.unread." + backlogVariant(p));
        return legacyJdbc.query(unread.sql(), (rs, n) -> reader.read(rs), unread.values(values(p, limit)));
    }

    /** The commit horizon now, in its encoded form, asked on a connection of its own (no transaction id of ours). */
    String horizon() {
        try (Connection c = legacy.getConnection(); PreparedStatement ps = c.prepareStatement(horizonSql)) {
            if (dialect.commitHorizon() == CommitHorizon.INSERT_TIME) {
                ps.setLong(1, settleTime.toNanos() / 1000);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                Object mark = markKind.readComparable(rs, 1);
                if (mark == null) {
                    throw new IllegalStateException("the database returned no commit horizon");
                }
                return markKind.encode(mark);
            }
        } catch (SQLException e) {
            throw new org.springframework.jdbc.UncategorizedSQLException("commit horizon", horizonSql, e);
        }
    }

    private List<OutboxRow> read(Position p, int limit) {
        OutboxStatements.Statement read = statements.get("read." + windowVariant(p.low() != null,
                p.afterOrder() != null));
        return legacyJdbc.query(read.sql(), (rs, n) -> reader.read(rs), read.values(values(p, limit)));
    }

    /** The binds a position gives its reads. */
    private Map<Param, Object> values(Position p, int limit) {
        Map<Param, Object> v = new EnumMap<>(Param.class);
        v.put(Param.LIMIT, limit);
        if (p.low() != null) {
            v.put(Param.WINDOW_LOW, markKind.decode(p.low()));
        }
        if (p.high() != null) {
            v.put(Param.WINDOW_HIGH, markKind.decode(p.high()));
        }
        if (p.afterOrder() != null) {
            v.put(Param.AFTER_ORDER, bindable(ORDER, p.afterOrder()));
            if (cursor.size() > 1) {
                v.put(Param.AFTER_KEY, bindable(KEY, p.afterKey()));
            }
        }
        return v;
    }

    private static String windowVariant(boolean low, boolean after) {
        return (low ? "from" : "first") + (after ? ".after" : "");
    }

    /** Rows not yet published: all, those at or beyond the low end, or beyond the open window and after its cursor. */
    private static String backlogVariant(Position p) {
        if (p.high() == null) {
            return p.low() == null ? "all" : "beyondLow";
        }
        return "beyondHigh." + windowVariant(p.low() != null, p.afterOrder() != null);
    }

    private OutboxStatements render() {
        OutboxStatements.Builder b = OutboxStatements.builder();
        String table = dialect.quote(mapping.table().name());
        Bind limit = Bind.of(Param.LIMIT);
        Map<String, Fragment> backlog = new java.util.LinkedHashMap<>();
        backlog.put("all", Fragment.of("1 = 1"));
        backlog.put("beyondLow", Fragment.of(visibility + " >= ?", Bind.of(Param.WINDOW_LOW)));
        for (boolean low : new boolean[] {false, true}) {
            for (boolean after : new boolean[] {false, true}) {
                Fragment window = windowCondition(low, after);
                b.add("read." + windowVariant(low, after), new Fragment(readSql(window.sql()),
                        withLimit(window.binds(), limit)));
                backlog.put("beyondHigh." + windowVariant(low, after),
                        Fragment.of(visibility + " >= ?", Bind.of(Param.WINDOW_HIGH)).or(window));
            }
        }
        backlog.forEach((variant, condition) -> {
            b.add("backlog.count." + variant, new Fragment(dialect.sql("zerowrite.count", Map.of("table", table,
                    "window", condition.sql())), condition.binds()));
            b.add("backlog.unread." + variant, new Fragment(readSql(condition.sql()),
                    withLimit(condition.binds(), limit)));
        });
        b.add("byKeys", new Fragment(dialect.sql("outbox.select.byKeyText", Map.of("columns", reader.selectList(),
                "table", table + " t", "condition", "1 = 1", "keyText", OutboxRowReader.keyText(dialect, mapping, "t"),
                "keys", OutboxStatements.LIST)), List.of(Bind.of(Param.KEY_TEXTS))));
        return b.build();
    }

    private static List<Object> withLimit(List<Object> binds, Bind limit) {
        List<Object> all = new ArrayList<>(binds);
        all.add(limit);
        return all;
    }

    /** The reads of the legacy table, rendered when the reader was built ({@code relay explain}). */
    public OutboxStatements statements() {
        return statements;
    }

    private String readSql(String window) {
        String orderBy = String.join(", ", cursor.stream().map(c -> dialect.quote(mapping.column(c))).toList());
        return dialect.sql("zerowrite.read", Map.of("columns", reader.selectList(),
                "table", dialect.quote(mapping.table().name()), "window", window, "orderBy", orderBy));
    }

    /** Rows of the open window {@code [low, high)} after the cursor. */
    private Fragment windowCondition(boolean low, boolean after) {
        List<String> conditions = new ArrayList<>();
        List<Object> binds = new ArrayList<>();
        if (low) {
            conditions.add(visibility + " >= ?");
            binds.add(Bind.of(Param.WINDOW_LOW));
        }
        conditions.add(visibility + " < ?");
        binds.add(Bind.of(Param.WINDOW_HIGH));
        if (after) {
            String order = dialect.quote(mapping.column(ORDER));
            if (cursor.size() == 1) {
                conditions.add(dialect.sql("zerowrite.after.one", Map.of("a", order)));
                binds.add(Bind.of(Param.AFTER_ORDER));
            } else {
                conditions.add(dialect.sql("zerowrite.after.two", Map.of("a", order,
                        "b", dialect.quote(mapping.column(KEY)))));
                binds.add(Bind.of(Param.AFTER_ORDER));
                binds.add(Bind.of(Param.AFTER_ORDER));
                binds.add(Bind.of(Param.AFTER_KEY));
            }
        }
        return new Fragment(String.join(" AND ", conditions), binds);
    }

    private Object bindable(OutboxColumn c, String encoded) {
        return ColumnKind.bindable(mapping.kind(c).decode(encoded), dialect.bindsUuidAsText());
    }

    private Position lock() {
        List<Position> found = stateJdbc.query(stateDialect.sql("position.lock", Map.of("positions", positions)),
                (rs, n) -> new Position(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)), relay);
        if (found.isEmpty()) {
            throw new IllegalStateException("the position of relay '" + relay + "' has disappeared from " + TABLE);
        }
        return found.get(0);
    }

    private void save(Position p) {
        stateJdbc.update(stateDialect.sql("position.update", Map.of("positions", positions)), p.low(), p.high(),
                p.afterOrder(), p.afterKey(), relay);
    }
}
