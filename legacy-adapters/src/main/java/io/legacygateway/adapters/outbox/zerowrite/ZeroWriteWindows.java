package io.legacygateway.adapters.outbox.zerowrite;

import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.CREATED_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.KEY;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.ORDER;

import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.mapping.OutboxRowReader;
import io.legacygateway.adapters.outbox.sql.Fragment;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Bind;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Param;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import io.legacygateway.adapters.outbox.sql.SqlLists;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.Dialect.CommitHorizon;
import io.legacygateway.adapters.sql.TableInspector;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The zero-write reads of the legacy table: its commit horizon, the rows of a window {@code [low, high)} of the
 * visibility mark after a cursor, the rows beyond a {@link ZeroWritePosition} (the backlog), and rows by key. Every
 * variant is rendered once, when the reader is built; the reads run outside any transaction of the legacy table.
 */
final class ZeroWriteWindows {

    /** InnoDB fills INNODB_TRX again when it has not been read for 0.1 s; reads closer than this are not sent. */
    static final Duration REFILL = Duration.ofMillis(150);
    private static final Duration STALE_WARNING = Duration.ofMinutes(1);
    private static final Logger log = LoggerFactory.getLogger(ZeroWriteWindows.class);

    /** A horizon the database proved, before any settle time, and when it was read (nanoTime). */
    private record Proven(String horizon, long askedAt) {
        /** Read less than {@link #REFILL} ago: another read now would keep the list from refilling. */
        boolean recent() {
            return System.nanoTime() - askedAt < REFILL.toNanos();
        }
    }

    /**
     * The proven horizons of one datasource, shared by the relays that read through it: the list is the server's and
     * the horizon does not depend on the table (only each relay's settle time does), so one read serves every relay
     * of the gateway on that datasource, instead of each taking its own turn ({@link TransactionListTurns}).
     */
    private static final class SharedHorizon {
        /** One read at a time; the relays that wait for it take its result. */
        final ReentrantLock asking = new ReentrantLock();
        volatile Proven latest;
    }

    private static final Map<DataSource, SharedHorizon> SHARED = Collections.synchronizedMap(new WeakHashMap<>());

    /** A horizon as read, and whether the database proved it (MariaDB: the transaction list was not older than it). */
    record Asked(String horizon, boolean proven) {
    }

    /** How long a window's row count is kept to find rows committed in it after it opened ({@link #lateRows}). */
    static final Duration LATE_ROWS_WITHIN = Duration.ofMinutes(10);
    private static final int LATE_ROWS_WINDOWS = 10_000;

    /** A window as it opened: its bounds and the committed rows in it then, which nothing may add to. */
    private record Opened(String low, String high, long rows, long at) {
    }

    private final DataSource legacy;
    /** MariaDB: the windows opened in the last {@link #LATE_ROWS_WITHIN}, in order ({@link #lateRows}). */
    private final java.util.Deque<Opened> opened = new java.util.concurrent.ConcurrentLinkedDeque<>();
    private final Dialect dialect;
    private final OutboxMapping mapping;
    private final Duration settleTime;
    private final OutboxRowReader reader;
    private final JdbcTemplate jdbc;
    /** How the visibility mark is read, compared and encoded. */
    private final ColumnKind markKind;
    /** The cursor's columns: the order, then the key when it is another column. */
    private final List<OutboxColumn> cursor;
    /** The last horizon the database proved on this datasource, for every relay reading through it. */
    private final SharedHorizon shared;
    /** When the horizon could first not be proven since the last one that could (nanoTime), or 0. */
    private volatile long staleSince;
    private volatile long lastWarning;
    private final String visibility;
    /** MariaDB: the time zone every statement that reads or compares marks runs in ({@link #markZone}). */
    private final String zone;
    private final OutboxStatements statements;

    /**
     * @throws IllegalArgumentException naming the parameter when the key cannot be in a cursor, the database offers
     *                                  no sound commit horizon, or the insert-time column is not the database's
     */
    ZeroWriteWindows(DataSource legacy, Dialect dialect, OutboxMapping mapping, Duration settleTime,
                     UnaryOperator<String> label) {
        this.legacy = legacy;
        this.dialect = dialect;
        this.mapping = mapping;
        this.settleTime = settleTime;
        this.jdbc = new JdbcTemplate(legacy);
        this.shared = SHARED.computeIfAbsent(legacy, d -> new SharedHorizon());
        this.reader = new OutboxRowReader(dialect, mapping, "t");
        this.cursor = mapping.column(ORDER).equals(mapping.column(KEY)) ? List.of(ORDER) : List.of(ORDER, KEY);
        if (cursor.size() > 1 && !Set.of(ColumnKind.INTEGER, ColumnKind.DECIMAL, ColumnKind.TEXT, ColumnKind.CHAR,
                ColumnKind.UUID).contains(mapping.kind(KEY))) {
            throw new IllegalArgumentException(label.apply(KEY.parameter()) + ": ZERO_WRITE keeps the key in its"
                    + " cursor and needs a text, number or UUID key, not " + mapping.kind(KEY).description());
        }
        switch (dialect.commitHorizon()) {
            case TRANSACTION_IDS -> {
                this.zone = null;
                this.markKind = ColumnKind.INTEGER;
                this.visibility = dialect.sql("zerowrite.visibility", Map.of());
            }
            case INSERT_TIME -> {
                requireDatabaseInsertTime(mapping, label);
                this.zone = markZone(label);
                this.markKind = mapping.kind(CREATED_AT);
                this.visibility = dialect.sql("zerowrite.visibility",
                        Map.of("createdAt", "t." + dialect.quote(mapping.column(CREATED_AT))));
            }
            default -> throw new IllegalArgumentException(label.apply("markMode") + ": ZERO_WRITE needs a way to prove"
                    + " that no running transaction can still commit a row behind the relay's position, and the gateway"
                    + " has none for " + dialect.id() + " (PostgreSQL and MariaDB only); use STATUS, TIMESTAMP or"
                    + " DELETE, or capture changes with triggers");
        }
        this.statements = render();
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

    /**
     * MariaDB: the one time zone the marks are compared in, whatever the zones of the gateway's sessions. A
     * {@code TIMESTAMP} column is stored in UTC: its marks, {@code NOW(6)} and {@code INNODB_TRX}'s times are all read in
     * UTC, where no hour repeats. A {@code DATETIME} column holds the local time of the writer's session, which is the
     * server's zone unless a writer sets another (the gateway cannot see that; documented): the horizon is read in the
     * server's zone, and that zone must have one offset all year, else at the fall-back the repeated hour's rows sort
     * below a horizon read an hour later and are passed.
     *
     * @throws IllegalArgumentException naming {@code createdAtColumn} when the column is a {@code DATETIME} and the
     *                                  server's zone changes its offset during the year
     */
    private String markZone(UnaryOperator<String> label) {
        TableInspector.Column column = mapping.table().column(mapping.column(CREATED_AT)).orElseThrow();
        if (column.typeName().toUpperCase(Locale.ROOT).startsWith("TIMESTAMP")) {
            return "+00:00";
        }
        String server = jdbc.queryForObject(dialect.sql("zerowrite.zone.server", Map.of()), String.class);
        if (server == null || !server.matches("[A-Za-z0-9_/+:.-]{1,64}")) {
            throw new IllegalArgumentException(label.apply(CREATED_AT.parameter()) + ": the server's time zone '"
                    + server + "' cannot be used for the DATETIME column '" + column.name() + "'");
        }
        int year = java.time.LocalDate.now(java.time.ZoneOffset.UTC).getYear();
        long january = LocalDateTime.of(year, 1, 15, 12, 0).toEpochSecond(java.time.ZoneOffset.UTC);
        long july = LocalDateTime.of(year, 7, 15, 12, 0).toEpochSecond(java.time.ZoneOffset.UTC);
        List<Integer> offsets = jdbc.queryForObject(dialect.sql("zerowrite.zone.offsets", Map.of("zone", server)),
                (rs, n) -> List.of(rs.getInt(1), rs.getInt(2)), january, january, july, july);
        if (!offsets.get(0).equals(offsets.get(1))) {
            throw new IllegalArgumentException(label.apply(CREATED_AT.parameter()) + ": ZERO_WRITE cannot order the"
                    + " DATETIME column '" + column.name() + "' in the server's time zone '" + server + "', which"
                    + " changes its offset during the year (" + offsets.get(0) + " s, then " + offsets.get(1) + " s from"
                    + " UTC): at the fall-back the repeated hour's rows would sort below a horizon read an hour later"
                    + " and be skipped. Make the column TIMESTAMP(6) (stored in UTC), or run the server in UTC or a"
                    + " fixed offset (time_zone = '+00:00')");
        }
        return server;
    }

    /** {@code statement} run in the marks' zone (MariaDB); as it is elsewhere. */
    private String inZone(String statement) {
        return zone == null ? statement : dialect.sql("zerowrite.inZone", Map.of("zone", zone,
                "statement", statement));
    }

    /** The reads, rendered when the reader was built. */
    OutboxStatements statements() {
        return statements;
    }

    /**
     * The commit horizon now, in the canonical encoding positions keep, asked on a connection of its own (no
     * transaction of ours on the legacy table); empty when the database cannot prove one at this moment.
     *
     * <p>MariaDB: {@code INNODB_TRX} is a cache that InnoDB fills again only when nobody has read it for 0.1 s, so
     * while something reads it more often (monitoring, other relays) it keeps showing the transactions of seconds ago
     * and misses those begun since: a horizon taken from it could pass the rows of a transaction that commits later,
     * and they would never be published. The horizon is therefore read in a transaction of its own, and taken only when
     * the list shows that transaction running this very read (a token new for each read). A list older than the read
     * gives nothing; the relay publishes nothing new in that cycle and asks again in the next. Reads closer together
     * than {@link #REFILL} are not sent (they would keep the cache from refilling): the last proven horizon is returned,
     * which is older and still sound. The readers of every gateway on the server take turns
     * ({@link TransactionListTurns}), so that none keeps the list stale for another; the relays of one gateway on one
     * datasource share each read (without the settle time, which each subtracts itself): a relay that finds another
     * one's read under way waits for it (at most twice {@link TransactionListTurns#WAIT}) and takes its result.
     */
    Optional<String> horizon() {
        if (dialect.commitHorizon() != CommitHorizon.INSERT_TIME) {
            return Optional.of(ask(null, settleTime).horizon());
        }
        Proven last = shared.latest;
        if (last != null && last.recent()) {
            return fresh(last);
        }
        boolean asking;
        try {
            asking = shared.asking.tryLock(2 * TransactionListTurns.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            asking = false;
        }
        if (!asking) {
            return unproven(shared.latest);
        }
        try {
            Proven latest = shared.latest;
            if (latest != null && (latest != last || latest.recent())) {
                return fresh(latest); // another relay's read, made while this one waited
            }
            Asked asked = ask(UUID.randomUUID().toString(), Duration.ZERO);
            if (!asked.proven()) {
                return unproven(latest);
            }
            Proven read = new Proven(asked.horizon(), System.nanoTime());
            shared.latest = read;
            return fresh(read);
        } finally {
            shared.asking.unlock();
        }
    }

    private Optional<String> fresh(Proven p) {
        staleSince = 0;
        return Optional.of(settled(p.horizon()));
    }

    /** No proven horizon now: the last one, if any (older, still sound); warns while that lasts. */
    private Optional<String> unproven(Proven last) {
        long now = System.nanoTime();
        staleSince = staleSince == 0 ? now : staleSince;
        warnWhileStale(now);
        return Optional.ofNullable(last).map(p -> settled(p.horizon()));
    }

    /** A horizon read without a settle time, moved back by this relay's (as the read subtracts it, to the µs). */
    private String settled(String horizon) {
        LocalDateTime h = (LocalDateTime) markKind.decode(horizon);
        return markKind.encode(h.minus(settleTime.toNanos() / 1000, ChronoUnit.MICROS));
    }

    /**
     * One read of the horizon, proven or not: at startup, to check that the database answers (privileges) and to
     * bound a first test read of the table. Never a position's bound unless {@link Asked#proven}.
     */
    Asked askOnce() {
        return ask(dialect.commitHorizon() != CommitHorizon.INSERT_TIME ? null : UUID.randomUUID().toString(),
                settleTime);
    }

    /**
     * The first proven horizon, waiting up to {@code patience} for the database to give one (at startup).
     *
     * @throws IllegalStateException when it gives none in that time
     */
    String firstHorizon(Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            Optional<String> h = horizon();
            if (h.isPresent()) {
                return h.get();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("information_schema.INNODB_TRX was not refilled within " + patience
                        + ": something on the server reads it more often than every 0.1 s, and a horizon taken from"
                        + " it could pass a running transaction");
            }
            try {
                Thread.sleep(REFILL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the commit horizon", e);
            }
        }
    }

    /**
     * One read of the horizon, {@code settle} before the database's; not proven when (MariaDB, {@code call} given) the
     * transaction list predates the read.
     */
    private Asked ask(String call, Duration settle) {
        boolean proveFresh = call != null;
        String sql = inZone(dialect.sql("zerowrite.horizon", proveFresh ? Map.of("call", call) : Map.of()));
        Connection c;
        try {
            c = legacy.getConnection();
        } catch (SQLException e) {
            throw new UncategorizedSQLException("commit horizon", sql, e);
        }
        boolean turn = false;
        try {
            turn = proveFresh && TransactionListTurns.take(c, dialect);
            return ask(c, sql, call, settle);
        } catch (SQLException e) {
            throw new UncategorizedSQLException("commit horizon", sql, e);
        } finally {
            TransactionListTurns.end(c, dialect, turn);
        }
    }

    /** The read on {@code c}: MariaDB ({@code call} given) in a transaction of its own, rolled back after. */
    private Asked ask(Connection c, String sql, String call, Duration settle) throws SQLException {
        boolean proveFresh = call != null;
        boolean autoCommit = c.getAutoCommit();
        try {
            if (proveFresh) {
                c.setAutoCommit(false);
                try (Statement begin = c.createStatement()) {
                    begin.execute(dialect.sql("zerowrite.horizon.begin", Map.of()));
                }
            }
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                if (proveFresh) {
                    ps.setLong(1, settle.toNanos() / 1000);
                    ps.setString(2, "%" + call + "%");
                }
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    Object mark = markKind.readComparable(rs, 1);
                    if (mark == null) {
                        throw new IllegalStateException("the database returned no commit horizon");
                    }
                    // the canonical encoding positions keep (the driver's object may encode otherwise)
                    return new Asked(markKind.encode(markKind.decode(markKind.encode(mark))),
                            !proveFresh || rs.getInt(2) == 1);
                }
            }
        } finally {
            if (proveFresh) {
                c.rollback();
                c.setAutoCommit(autoCommit);
            }
        }
    }

    private void warnWhileStale(long now) {
        if (now - staleSince >= STALE_WARNING.toNanos()
                && (lastWarning == 0 || now - lastWarning >= STALE_WARNING.toNanos())) {
            lastWarning = now;
            log.warn("ZERO_WRITE on table '{}': no commit horizon for {} s, so nothing new is published (nothing is"
                    + " lost: the rows wait). MariaDB has not refilled information_schema.INNODB_TRX since: something"
                    + " reads it more often than every 0.1 s without taking turns with the gateways (monitoring, or"
                    + " a gateway of an earlier version on this server)", mapping.table().name(), Duration.ofNanos(now - staleSince).toSeconds());
        }
    }

    /**
     * The end of a window that opens at {@code low} with {@code horizon}: MariaDB lowers it below every row of
     * {@code [low, horizon)} that is in the table but not committed; empty when nothing beyond {@code low} is final.
     *
     * <p>Why (MariaDB): a row's mark is its statement's start, and a statement that waited for a metadata or table lock
     * ({@code LOCK TABLES}, an {@code ALTER TABLE} cut-over, {@code FLUSH TABLES WITH READ LOCK}) starts its InnoDB
     * transaction only after the wait: once it is done, {@code INNODB_TRX} shows that transaction seconds later than its
     * rows, and the horizon could pass them before they commit (rows lost; found on 6 December 2026). The rows of the
     * window are counted twice on a connection of their own, first as a dirty read (every row physically there), then
     * as a committed read; when the two differ, the rows only the dirty read holds are listed and the window ends
     * before the earliest. Sound with the horizon's statement list: a row below the horizon was either in the table
     * before these reads (seen dirty) or written by a statement running when the horizon was read (which holds the
     * horizon at its start). Cost: two index range reads of the new window per window; the list of the window's keys
     * only while an uncommitted row lies in it. A row deleted by a transaction still running also makes the counts
     * differ: the window then ends at the earliest uncommitted insert, if any.
     */
    Optional<String> finalUpTo(String low, String horizon) {
        if (dialect.commitHorizon() != CommitHorizon.INSERT_TIME) {
            return low == null || beyond(horizon, low) ? Optional.of(horizon) : Optional.empty();
        }
        if (low != null && !beyond(horizon, low)) {
            return Optional.empty();
        }
        ZeroWritePosition window = ZeroWritePosition.startingAt(low).open(horizon);
        String variant = low == null ? "first" : "from";
        Object[] binds = statements.get("uncommitted.digest." + variant).values(values(window, 0));
        String end = horizon;
        try (Connection c = legacy.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            int isolation = c.getTransactionIsolation();
            try {
                c.setAutoCommit(true);
                c.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
                List<Object> dirty = digest(c, variant, binds);
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                List<Object> committed = digest(c, variant, binds);
                if (dirty.equals(committed)) {
                    remember(low, horizon, (Long) committed.get(0));
                } else {
                    c.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
                    Map<String, LocalDateTime> inTable = rows(c, variant, binds);
                    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                    rows(c, variant, binds).keySet().forEach(inTable::remove);
                    LocalDateTime earliest = inTable.values().stream().min(LocalDateTime::compareTo).orElse(null);
                    if (earliest != null && earliest.isBefore((LocalDateTime) markKind.decode(end))) {
                        end = markKind.encode(earliest);
                        log.debug("ZERO_WRITE on table '{}': {} uncommitted row(s) below the horizon {}; the window"
                                + " ends at {}", mapping.table().name(), inTable.size(), horizon, end);
                    }
                }
            } finally {
                c.setTransactionIsolation(isolation);
                c.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new UncategorizedSQLException("uncommitted rows of the window", null, e);
        }
        return low == null || beyond(end, low) ? Optional.of(end) : Optional.empty();
    }

    /** Records a window that opens with {@code rows} committed rows; it replaces those that opened at or after it. */
    private synchronized void remember(String low, String high, long rows) {
        long now = System.nanoTime();
        while (!opened.isEmpty() && (low == null || opened.peekLast().low() != null
                && !beyond(low, opened.peekLast().low()))) {
            opened.pollLast(); // a cycle that rolled back: its window opens again
        }
        opened.addLast(new Opened(low, high, rows, now));
        while (opened.size() > LATE_ROWS_WINDOWS
                || now - opened.peekFirst().at() > LATE_ROWS_WITHIN.toNanos()) {
            opened.pollFirst();
        }
    }

    /**
     * MariaDB: rows committed in windows that had already opened (in the last {@link #LATE_ROWS_WITHIN}, since this
     * reader was built): rows the relay has passed and will never publish. None can be, by the horizon's proof; a row
     * whose insert time the application wrote itself, a writer session in another time zone than the server's for a
     * {@code DATETIME} column, or a clock stepped back can still put one there, and the backlog counts it so that it is
     * seen. One count per run of adjacent windows (one, while the relay runs undisturbed); rows deleted meanwhile can
     * hide as many. PostgreSQL: 0 (a transaction id below the horizon is final).
     */
    long lateRows() {
        List<Opened> windows;
        synchronized (this) {
            windows = List.copyOf(opened);
        }
        long late = 0;
        int i = 0;
        while (i < windows.size()) {
            Opened first = windows.get(i);
            long rows = first.rows();
            String high = first.high();
            while (i + 1 < windows.size() && high.equals(windows.get(i + 1).low())) {
                i++;
                rows += windows.get(i).rows();
                high = windows.get(i).high();
            }
            i++;
            ZeroWritePosition run = ZeroWritePosition.startingAt(first.low()).open(high);
            OutboxStatements.Statement count = statements.get("uncommitted.digest." + (first.low() == null ? "first"
                    : "from"));
            Long now = jdbc.queryForObject(count.sql(), (rs, n) -> rs.getLong(1), count.values(values(run, 0)));
            late += Math.max(0, (now == null ? 0 : now) - rows);
        }
        return late;
    }

    /** Count and two hashes of the window's keys, as the connection's isolation sees them. */
    private List<Object> digest(Connection c, String variant, Object[] binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statements.get("uncommitted.digest." + variant).sql())) {
            bind(ps, binds);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return List.of(rs.getLong(1), rs.getString(2), rs.getString(3));
            }
        }
    }

    /** The window's keys (as text) and marks, as the connection's isolation sees them. */
    private Map<String, LocalDateTime> rows(Connection c, String variant, Object[] binds) throws SQLException {
        Map<String, LocalDateTime> rows = new java.util.HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(statements.get("uncommitted.rows." + variant).sql())) {
            bind(ps, binds);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.put(rs.getString(1), (LocalDateTime) markKind.readComparable(rs, 2));
                }
            }
        }
        return rows;
    }

    private static void bind(PreparedStatement ps, Object[] binds) throws SQLException {
        for (int i = 0; i < binds.length; i++) {
            ps.setObject(i + 1, binds[i]);
        }
    }

    /** Whether {@code horizon} lies beyond {@code low}: something has become final since that window. */
    boolean beyond(String horizon, String low) {
        return markKind.compare(markKind.decode(horizon), markKind.decode(low)) > 0;
    }

    /** The open window's position with its cursor after {@code last}. */
    ZeroWritePosition after(ZeroWritePosition p, OutboxRow last) {
        return p.after(mapping.kind(ORDER).encode(last.order()),
                cursor.size() > 1 ? mapping.kind(KEY).encode(keyComparable(last)) : null);
    }

    private Object keyComparable(OutboxRow row) {
        // the key as the reader returns it is the driver's object; take the comparable form of its kind
        ColumnKind kind = mapping.kind(KEY);
        Object key = row.key();
        return kind.decode(kind == ColumnKind.CHAR ? key.toString().stripTrailing() : key.toString());
    }

    /** Up to {@code limit} rows of the open window after its cursor, in cursor order. */
    List<OutboxRow> read(ZeroWritePosition p, int limit) {
        return query("read." + windowVariant(p.low() != null, p.afterOrder() != null), p, limit);
    }

    /** Up to {@code limit} rows not yet read at {@code p}, in cursor order. */
    List<OutboxRow> unread(ZeroWritePosition p, int limit) {
        return query("backlog.unread." + backlogVariant(p), p, limit);
    }

    /** How many rows are not yet read at {@code p}. */
    long countUnread(ZeroWritePosition p) {
        OutboxStatements.Statement counted = statements.get("backlog.count." + backlogVariant(p));
        Long count = jdbc.queryForObject(counted.sql(), Long.class, counted.values(values(p, 0)));
        return count == null ? 0 : count;
    }

    /** Rows of the legacy table by key (as text), in outbox order. */
    List<OutboxRow> byKeys(Collection<String> keys) {
        List<OutboxRow> rows = new ArrayList<>();
        OutboxStatements.Statement byKeys = statements.get("byKeys");
        for (List<String> chunk : SqlLists.chunks(keys)) {
            Map<Param, Object> values = Map.of(Param.KEY_TEXTS, chunk);
            rows.addAll(jdbc.query(byKeys.sql(values), (rs, n) -> reader.read(rs), byKeys.values(values)));
        }
        ColumnKind order = mapping.kind(ORDER);
        rows.sort((a, b) -> order.compare(a.order(), b.order()));
        return rows;
    }

    private List<OutboxRow> query(String statement, ZeroWritePosition p, int limit) {
        OutboxStatements.Statement read = statements.get(statement);
        return jdbc.query(read.sql(), (rs, n) -> reader.read(rs), read.values(values(p, limit)));
    }

    /** The binds a position gives its reads. */
    private Map<Param, Object> values(ZeroWritePosition p, int limit) {
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

    private Object bindable(OutboxColumn c, String encoded) {
        return ColumnKind.bindable(mapping.kind(c).decode(encoded), dialect.bindsUuidAsText());
    }

    private static String windowVariant(boolean low, boolean after) {
        return (low ? "from" : "first") + (after ? ".after" : "");
    }

    /** Rows not yet published: all, those at or beyond the low end, or beyond the open window and after its cursor. */
    private static String backlogVariant(ZeroWritePosition p) {
        if (p.high() == null) {
            return p.low() == null ? "all" : "beyondLow";
        }
        return "beyondHigh." + windowVariant(p.low() != null, p.afterOrder() != null);
    }

    // ---- rendering: every variant once, when the reader is built

    private OutboxStatements render() {
        OutboxStatements.Builder b = OutboxStatements.builder();
        String table = dialect.quote(mapping.table().name());
        Bind limit = Bind.of(Param.LIMIT);
        Map<String, Fragment> backlog = new LinkedHashMap<>();
        backlog.put("all", Fragment.of("1 = 1"));
        backlog.put("beyondLow", Fragment.of(visibility + " >= ?", Bind.of(Param.WINDOW_LOW)));
        for (boolean low : new boolean[] {false, true}) {
            for (boolean after : new boolean[] {false, true}) {
                Fragment window = windowCondition(low, after);
                b.add("read." + windowVariant(low, after), new Fragment(inZone(readSql(window.sql())),
                        withLimit(window.binds(), limit)));
                backlog.put("beyondHigh." + windowVariant(low, after),
                        Fragment.of(visibility + " >= ?", Bind.of(Param.WINDOW_HIGH)).or(window));
            }
        }
        backlog.forEach((variant, condition) -> {
            b.add("backlog.count." + variant, new Fragment(inZone(dialect.sql("zerowrite.count", Map.of("table", table,
                    "window", condition.sql()))), condition.binds()));
            b.add("backlog.unread." + variant, new Fragment(inZone(readSql(condition.sql())),
                    withLimit(condition.binds(), limit)));
        });
        if (dialect.commitHorizon() == CommitHorizon.INSERT_TIME) {
            String keyText = OutboxRowReader.keyText(dialect, mapping, "t");
            for (boolean low : new boolean[] {false, true}) {
                Fragment window = windowCondition(low, false);
                for (String check : List.of("digest", "rows")) {
                    b.add("uncommitted." + check + "." + windowVariant(low, false), new Fragment(inZone(dialect.sql(
                            "zerowrite.uncommitted." + check, Map.of("table", table, "window", window.sql(),
                                    "keyText", keyText, "createdAt", "t." + dialect.quote(mapping.column(CREATED_AT))))),
                            window.binds()));
                }
            }
        }
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
}
