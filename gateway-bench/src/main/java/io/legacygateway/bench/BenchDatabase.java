package io.legacygateway.bench;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * One database of the run: a schema (PostgreSQL) or database (MariaDB) of its own with the gateway's default outbox,
 * relay-state and inbox tables and the inbox's effect table, and the statements the hand-written programs use, each
 * written once per database. The rows the bench writes come from the bench itself, so the hand-written programs trust
 * their text (no escaping).
 */
enum BenchDatabase {
    POSTGRES("postgres", TestDatabase.POSTGRES, Dialect.POSTGRESQL,
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, event_version, payload, status, published_at,"
                    + " occurred_at) SELECT 'Order', 'order-' || (i %% %1$d), 'OrderChanged', 1, '{\"orderId\":\"order-'"
                    + " || (i %% %1$d) || '\",\"customerId\":\"customer-' || (i %% 97) || '\",\"amount\":' || (i %% 500)"
                    + " || '.25,\"currency\":\"EUR\",\"note\":\"' || repeat('x', %2$d) || '\",\"lines\":[{\"sku\":\"SKU-'"
                    + " || (i %% 50) || '\",\"quantity\":' || (1 + i %% 5) || '}]}', ?, ?, now()"
                    + " FROM generate_series(1, %3$d) AS g(i)",
            "UPDATE outbox SET status = ?, published_at = ?, locked_by = ? WHERE seq = ANY(?)",
            " ON CONFLICT DO NOTHING"),
    MARIADB("mariadb", TestDatabase.MARIADB, Dialect.MARIADB,
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, event_version, payload, status, published_at,"
                    + " occurred_at) SELECT 'Order', CONCAT('order-', seq %% %1$d), 'OrderChanged', 1,"
                    + " CONCAT('{\"orderId\":\"order-', seq %% %1$d, '\",\"customerId\":\"customer-', seq %% 97,"
                    + " '\",\"amount\":', seq %% 500, '.25,\"currency\":\"EUR\",\"note\":\"', REPEAT('x', %2$d),"
                    + " '\",\"lines\":[{\"sku\":\"SKU-', seq %% 50, '\",\"quantity\":', 1 + seq %% 5, '}]}'), ?, ?,"
                    + " UTC_TIMESTAMP(6) FROM seq_1_to_%3$d",
            "UPDATE outbox SET status = ?, published_at = ?, locked_by = ? WHERE seq IN (%s)",
            "");

    /** Aggregates of the outbox rows and accounts of the inbox's effect table. */
    static final int AGGREGATES = 1000;
    /** Filler in each payload: with it a row's payload is ~0.7 KiB and its CloudEvents envelope ~1 KiB. */
    static final int NOTE_CHARS = 560;

    /**
     * The pending status as a literal, as the gateway's claim writes it: with a bind, the plan PostgreSQL caches after
     * a few executions (generic) cannot use the partial index of pending rows and walks the published ones.
     */
    static final String CLAIM = "SELECT seq, id, aggregate_type, aggregate_id, event_type, event_version, payload,"
            + " occurred_at FROM outbox WHERE status = 'PENDING' ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED";
    static final String EFFECT = "UPDATE bench_account SET balance = balance + ?, events = events + 1"
            + " WHERE account_id = ?";
    /** The same effect as the gateway's inbox runs it, with the envelope's named parameters. */
    static final String GATEWAY_EFFECT = "UPDATE bench_account SET balance = balance + :data.amount,"
            + " events = events + 1 WHERE account_id = :subject";

    final String id;
    final TestDatabase database;
    final Dialect dialect;
    private final String prefill;
    private final String mark;
    private final String insertIgnoreSuffix;
    private String schema;
    private String url;
    private Connection probe;

    BenchDatabase(String id, TestDatabase database, Dialect dialect, String prefill, String mark,
                  String insertIgnoreSuffix) {
        this.id = id;
        this.database = database;
        this.dialect = dialect;
        this.prefill = prefill;
        this.mark = mark;
        this.insertIgnoreSuffix = insertIgnoreSuffix;
    }

    static BenchDatabase parse(String id) {
        for (BenchDatabase d : values()) {
            if (d.id.equals(id)) {
                return d;
            }
        }
        throw new IllegalArgumentException("--db: '" + id + "' is not postgres, mariadb or both");
    }

    /**
     * Creates the schema and its tables.
     *
     * @param pendingIndex PostgreSQL: add a partial index of the PENDING rows in outbox order
     */
    void create(boolean pendingIndex) throws SQLException {
        schema = TestDatabase.uniqueName(Benchmark.class);
        url = database.create(schema);
        DriverManagerDataSource ds = new DriverManagerDataSource(url, database.username(), "");
        for (String script : new String[] {"outbox.sql", "relay-state.sql", "inbox.sql"}) {
            SchemaScripts.apply(ds, dialect, script);
        }
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE bench_account (account_id VARCHAR(64) PRIMARY KEY, balance NUMERIC(18,2) NOT NULL,"
                    + " events BIGINT NOT NULL)");
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < AGGREGATES; i++) {
                values.append(i == 0 ? "" : ",").append("('order-").append(i).append("', 0, 0)");
            }
            s.execute("INSERT INTO bench_account VALUES " + values);
            if (pendingIndex && this == POSTGRES) {
                s.execute("CREATE INDEX bench_outbox_pending ON outbox (seq) WHERE status = 'PENDING'");
            }
            c.commit();
        }
    }

    void drop() throws SQLException {
        if (probe != null) {
            probe.close();
            probe = null;
        }
        if (schema != null) {
            database.drop(schema);
        }
    }

    String url() {
        return url;
    }

    String schema() {
        return schema;
    }

    /** A long-lived connection as the hand-written programs keep it: no autocommit, read committed. */
    Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(url, database.username(), "");
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        return c;
    }

    /** Runs statements (DDL) in one transaction. */
    void execute(List<String> statements) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
            c.commit();
        }
    }

    /**
     * Empties the outbox, then writes {@code published} rows already PUBLISHED (the history a legacy table keeps)
     * followed by {@code pending} PENDING rows, server-side; then refreshes the statistics unless told not to, and
     * writes the checkpoint out ({@link #checkpoint}).
     */
    void prefillOutbox(int published, int pending, boolean analyze) throws SQLException {
        try (Connection c = connect()) {
            try (Statement s = c.createStatement()) {
                s.execute(this == POSTGRES ? "TRUNCATE TABLE outbox RESTART IDENTITY" : "TRUNCATE TABLE outbox");
            }
            c.commit();
            insertRows(c, published, "PUBLISHED", Timestamp.from(Instant.now()));
            insertRows(c, pending, "PENDING", null);
        }
        if (analyze) {
            analyzeOutbox();
        }
        checkpoint();
    }

    private void insertRows(Connection c, int rows, String status, Timestamp publishedAt) throws SQLException {
        // generated in chunks: one statement per chunk keeps each transaction's size reasonable
        for (int done = 0; done < rows; ) {
            int n = Math.min(100_000, rows - done);
            try (PreparedStatement p = c.prepareStatement(String.format(prefill, AGGREGATES, NOTE_CHARS, n))) {
                p.setString(1, status);
                p.setTimestamp(2, publishedAt);
                p.executeUpdate();
            }
            c.commit();
            done += n;
        }
    }

    /**
     * Puts the rows a relay published back to PENDING, as if never published (the prefilled history has no
     * {@code locked_by}), so that the same backlog can be drained again.
     */
    void resetPublishedByRelay(boolean analyze) throws SQLException {
        try (Connection c = connect(); PreparedStatement p = c.prepareStatement(
                "UPDATE outbox SET status = ?, published_at = NULL, locked_by = NULL WHERE locked_by IS NOT NULL")) {
            p.setString(1, "PENDING");
            p.executeUpdate();
            c.commit();
        }
        if (analyze) {
            analyzeOutbox();
        } else if (this == POSTGRES) {
            try (Connection c = DriverManager.getConnection(url, database.username(), "");
                 Statement s = c.createStatement()) {
                s.execute("VACUUM outbox"); // the dead tuples of the reset, not the statistics
            }
        }
        checkpoint();
    }

    /**
     * PostgreSQL: the WAL of the table's last writes written out now (CHECKPOINT), not by the checkpoint it calls for
     * (max_wal_size) during the line that follows, whichever path that is: 19 such checkpoints in one relay run, and the
     * 1,000,000-row prefill's in the first backlog drain after it.
     */
    private void checkpoint() throws SQLException {
        if (this == POSTGRES) {
            try (Connection c = DriverManager.getConnection(url, database.username(), "");
                 Statement s = c.createStatement()) {
                s.execute("CHECKPOINT");
            }
        }
    }

    /**
     * Whether the database may take the outbox's statistics on its own: MariaDB recalculates them after 10 % of the
     * rows changed unless told not to; PostgreSQL's autovacuum is the server's setting (off on this bench's machine).
     */
    void keepStatistics(boolean automatic) throws SQLException {
        if (this == MARIADB) {
            execute(List.of("ALTER TABLE outbox STATS_AUTO_RECALC = " + (automatic ? "DEFAULT" : "0")));
        }
    }

    void analyzeOutbox() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, database.username(), "");
             Statement s = c.createStatement()) {
            s.execute(this == POSTGRES ? "VACUUM ANALYZE outbox" : "ANALYZE TABLE outbox");
        }
    }

    /** A count of the bench's own tables ({@code sql} is the bench's constant text). */
    long count(String sql) throws SQLException {
        return probe(sql);
    }

    /** Rows waiting to be published. */
    long pending() throws SQLException {
        return probe("SELECT COUNT(*) FROM outbox WHERE status = ?", "PENDING");
    }

    /** Rows of the outbox in {@code status}. */
    long rows(String status) throws SQLException {
        return probe("SELECT COUNT(*) FROM outbox WHERE status = ?", status);
    }

    /** Effects applied to {@code bench_account} (each adds 1 to an account's {@code events}). */
    long appliedEffects() throws SQLException {
        return probe("SELECT COALESCE(SUM(events), 0) FROM bench_account");
    }

    /** Inbox rows of a consumer. */
    long inboxRows(String consumer) throws SQLException {
        return probe("SELECT COUNT(*) FROM inbox WHERE consumer_name = ?", consumer);
    }

    /** One long-lived autocommit connection for the bench's own counts (a new connection is a process on PostgreSQL). */
    private synchronized long probe(String sql, Object... values) throws SQLException {
        if (probe == null || probe.isClosed()) {
            probe = DriverManager.getConnection(url, database.username(), "");
        }
        try (PreparedStatement p = probe.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                p.setObject(i + 1, values[i]);
            }
            try (var r = p.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    void resetInbox() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("TRUNCATE TABLE inbox");
            c.commit();
            s.executeUpdate("UPDATE bench_account SET balance = 0, events = 0");
            c.commit();
        }
    }

    /**
     * The mark of a batch in one statement, prepared once per connection and batch size and reused: {@code = ANY(?)}
     * with an array on PostgreSQL, {@code IN (?, …)} on MariaDB (one statement text per list length).
     */
    final class Marker {
        private final Connection connection;
        private final Map<Integer, PreparedStatement> statements = new HashMap<>();
        private final String claimer;

        Marker(Connection connection, String claimer) {
            this.connection = connection;
            this.claimer = claimer;
        }

        void mark(long[] seqs, int n) throws SQLException {
            Timestamp now = Timestamp.from(Instant.now());
            if (BenchDatabase.this == POSTGRES) {
                PreparedStatement p = statements.computeIfAbsent(0, k -> prepare(mark));
                Long[] keys = new Long[n];
                for (int i = 0; i < n; i++) {
                    keys[i] = seqs[i];
                }
                p.setString(1, "PUBLISHED");
                p.setTimestamp(2, now);
                p.setString(3, claimer);
                p.setArray(4, connection.createArrayOf("bigint", keys));
                check(p.executeUpdate(), n);
            } else {
                PreparedStatement p = statements.computeIfAbsent(n, k ->
                        prepare(String.format(mark, String.join(",", Collections.nCopies(k, "?")))));
                p.setString(1, "PUBLISHED");
                p.setTimestamp(2, now);
                p.setString(3, claimer);
                for (int i = 0; i < n; i++) {
                    p.setLong(4 + i, seqs[i]);
                }
                check(p.executeUpdate(), n);
            }
        }

        private PreparedStatement prepare(String sql) {
            try {
                return connection.prepareStatement(sql);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        private void check(int updated, int expected) {
            if (updated != expected) {
                throw new IllegalStateException("mark updated " + updated + " rows of " + expected);
            }
        }
    }

    /**
     * The multi-row insert-first into the inbox, prepared once per connection and batch size: rows that were already
     * there are skipped ({@code ON CONFLICT DO NOTHING} / {@code INSERT IGNORE}).
     */
    final class InboxInsert {
        private final Connection connection;
        private final Map<Integer, PreparedStatement> statements = new HashMap<>();

        InboxInsert(Connection connection) {
            this.connection = connection;
        }

        /** Inserts the ids' inbox rows; returns how many were new. */
        int insert(String[] ids, int n, String consumer) throws SQLException {
            PreparedStatement p = statements.computeIfAbsent(n, k -> {
                try {
                    return connection.prepareStatement((BenchDatabase.this == POSTGRES ? "INSERT" : "INSERT IGNORE") + " INTO inbox (message_id, consumer_name, processed_at) VALUES "
                            + String.join(",", Collections.nCopies(k, "(?, ?, ?)")) + insertIgnoreSuffix);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            Timestamp now = Timestamp.from(Instant.now());
            for (int i = 0; i < n; i++) {
                p.setString(3 * i + 1, ids[i]);
                p.setString(3 * i + 2, consumer);
                p.setTimestamp(3 * i + 3, now);
            }
            return p.executeUpdate();
        }
    }
}
